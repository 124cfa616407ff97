import { IsIn, IsObject, IsString, Matches, MaxLength, MinLength, ValidateIf } from 'class-validator';
import { Optional } from '../platform/validation/optional';
import { ENVIRONMENTS, type Environment } from '../agents/agent.events';

const ENV_MESSAGE = `clientEnv must be one of ${ENVIRONMENTS.join(', ')} (or send branchId to talk to a branch)`;
const LANG = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

/** `clientEnv` is required unless `branchId` is sent (draft chat, contract §26); both: refused by the service. */
const UnlessBranch = () =>
  ValidateIf(
    (dto: { branchId?: string; clientEnv?: string }, value) => value !== undefined || dto.branchId === undefined,
  );

export class StartDebugChatDto {
  @UnlessBranch() @IsIn(ENVIRONMENTS as unknown as string[], { message: ENV_MESSAGE }) clientEnv?: Environment;
  /** draft chat: the branch (`BRANCH-<id>`, bare id or `main`) whose current content answers */
  @Optional() @IsString() @MinLength(1) @MaxLength(80) branchId?: string;
}

export class DebugChatTurnDto {
  @UnlessBranch() @IsIn(ENVIRONMENTS as unknown as string[], { message: ENV_MESSAGE }) clientEnv?: Environment;
  @Optional() @IsString() @MinLength(1) @MaxLength(80) branchId?: string;
  @Optional() @Matches(LANG, { message: 'asrLangCode must be a language tag such as en-GB' }) asrLangCode?: string;
  @Optional() @Matches(LANG, { message: 'ttsLangCode must be a language tag such as en-GB' }) ttsLangCode?: string;
  @Optional() @IsString() @MaxLength(20_000) message?: string;
  @Optional() @IsObject() metadata?: Record<string, unknown>;
}
