import { IsIn, IsObject, IsString, Matches, MaxLength } from 'class-validator';
import { Optional } from '../platform/validation/optional';
import { ENVIRONMENTS, type Environment } from '../agents/agent.events';

const ENV_MESSAGE = `clientEnv must be one of ${ENVIRONMENTS.join(', ')}`;
const LANG = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

export class StartDebugChatDto {
  @IsIn(ENVIRONMENTS as unknown as string[], { message: ENV_MESSAGE }) clientEnv: Environment;
}

export class DebugChatTurnDto {
  @IsIn(ENVIRONMENTS as unknown as string[], { message: ENV_MESSAGE }) clientEnv: Environment;
  @Optional() @Matches(LANG, { message: 'asrLangCode must be a language tag such as en-GB' }) asrLangCode?: string;
  @Optional() @Matches(LANG, { message: 'ttsLangCode must be a language tag such as en-GB' }) ttsLangCode?: string;
  @Optional() @IsString() @MaxLength(20_000) message?: string;
  @Optional() @IsObject() metadata?: Record<string, unknown>;
}
