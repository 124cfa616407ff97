import { Allow, IsIn, IsInt, IsObject, IsString, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';
import { Optional } from '../../platform/validation/optional';

const TIMEOUT = { message: 'timeout_ms must be an integer from 500 to 10000' };
/** A tool's name is how actions (`call_function name=...`) and models call it. */
const TOOL_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
const NAME = { message: 'name must start with a letter and hold letters, digits, _ and - (at most 64)' };

/** POST /v1/agents/{agentId}/branches/{branchId}/tools (contract §20); `url`, `parameters` and `headers` are judged further by the service. */
export class CreateToolDto {
  @IsString() @Matches(TOOL_NAME, NAME) name: string;
  @IsString() @MinLength(1) @MaxLength(1000) description: string;
  @IsString() @MinLength(1) url: string;
  @Optional() @IsIn(['POST'], { message: 'method must be POST' }) method?: 'POST';
  @IsObject() parameters: Record<string, unknown>;
  @Allow() headers?: unknown;
  @Optional() @IsInt(TIMEOUT) @Min(500, TIMEOUT) @Max(10000, TIMEOUT) timeout_ms?: number;
}

/** PATCH: only the fields to change; `headers` replaces the whole object. */
export class PatchToolDto {
  @Optional() @IsString() @Matches(TOOL_NAME, NAME) name?: string;
  @Optional() @IsString() @MinLength(1) @MaxLength(1000) description?: string;
  @Optional() @IsString() @MinLength(1) url?: string;
  @Optional() @IsIn(['POST'], { message: 'method must be POST' }) method?: 'POST';
  @Optional() @IsObject() parameters?: Record<string, unknown>;
  @Allow() headers?: unknown;
  @Optional() @IsInt(TIMEOUT) @Min(500, TIMEOUT) @Max(10000, TIMEOUT) timeout_ms?: number;
}
