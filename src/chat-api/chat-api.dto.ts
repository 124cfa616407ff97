import { IsIn, IsObject, IsString, MaxLength } from 'class-validator';
import { ENVIRONMENTS, type Environment } from '../agents/agent.events';
import { Optional } from '../platform/validation/optional';

const ENV_MESSAGE = `client_env must be one of ${ENVIRONMENTS.join(', ')}`;

export class CreateChatDto {
  @Optional() @IsString() @MaxLength(200) user_id?: string;
  @Optional() @IsString() @MaxLength(20_000) message?: string;
  @Optional() @IsObject({ message: 'metadata must be a JSON object' }) metadata?: Record<string, unknown>;
  @Optional() @IsIn(ENVIRONMENTS as unknown as string[], { message: ENV_MESSAGE }) client_env?: Environment;
}

export class RespondChatDto {
  @IsString() @MaxLength(200) conversation_id: string;
  @Optional() @IsString() @MaxLength(20_000) message?: string;
}

export class CloseChatDto {
  @IsString() @MaxLength(200) conversation_id: string;
}
