import { Type } from 'class-transformer';
import {
  Allow,
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { ENVIRONMENTS, type Environment } from '../agent.events';

export class ResponseSettingsDto {
  @IsString() @MaxLength(2000) greeting: string;
  @IsOptional() @Matches(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, { message: 'responseSettings.languageCode must be a language tag such as en-GB' }) languageCode?: string;
}

export class CreateAgentDto {
  @IsString() @MinLength(1) @MaxLength(200) name: string;
  @IsObject() @ValidateNested() @Type(() => ResponseSettingsDto) responseSettings: ResponseSettingsDto;
}

export class CreateBranchDto {
  @IsString() @Matches(/^[A-Za-z0-9][A-Za-z0-9._\/-]{0,99}$/, { message: 'branchName must be 1-100 letters, digits, . _ / -' }) branchName: string;
}

export class BehaviorDto {
  @IsString() @MaxLength(100_000) behavior: string;
}

export class ExampleQueriesDto {
  @IsArray() @ArrayMaxSize(100) @IsString({ each: true }) @MaxLength(1000, { each: true }) queries: string[];
}

export class CreateTopicDto {
  @IsString() @MinLength(1) @MaxLength(200) name: string;
  @IsString() @MaxLength(100_000) content: string;
  @IsObject() @ValidateNested() @Type(() => ExampleQueriesDto) exampleQueries: ExampleQueriesDto;
  @IsOptional() @IsString() @MaxLength(10_000) actions?: string;
  @IsOptional() @IsBoolean() isActive?: boolean;
}

export class PatchTopicDto {
  @IsOptional() @IsString() @MinLength(1) @MaxLength(200) name?: string;
  @IsOptional() @IsString() @MaxLength(100_000) content?: string;
  @IsOptional() @IsObject() @ValidateNested() @Type(() => ExampleQueriesDto) exampleQueries?: ExampleQueriesDto;
  @IsOptional() @IsString() @MaxLength(10_000) actions?: string;
  @IsOptional() @IsBoolean() isActive?: boolean;
}

export class ConflictResolutionDto {
  @IsArray() @ArrayMaxSize(2) @IsString({ each: true }) path: string[];
  @IsIn(['ours', 'theirs', 'base'], { message: 'strategy must be one of ours, theirs, base' }) strategy: 'ours' | 'theirs' | 'base';
  @Allow() value?: unknown;
}

export class MergeDto {
  @IsOptional() @IsString() @MaxLength(2000) deploymentMessage?: string;
  @IsOptional() @IsArray() @ArrayMaxSize(10_000) @ValidateNested({ each: true }) @Type(() => ConflictResolutionDto) conflictResolutions?: ConflictResolutionDto[];
}

export class PromoteDto {
  /** `sandbox` is a known environment but never a promotion target: the decider answers 422 for it. */
  @IsOptional() @IsIn(ENVIRONMENTS as unknown as string[], { message: 'targetEnvironment must be one of pre-release, live' }) targetEnvironment?: Environment;
  @IsOptional() @IsString() @MaxLength(2000) deploymentMessage?: string;
}

export class RollbackDto {
  @IsOptional() @IsString() @MaxLength(2000) deploymentMessage?: string;
}

export class DeploymentsQuery {
  @IsOptional() @IsIn(ENVIRONMENTS as unknown as string[], { message: 'environment must be one of sandbox, pre-release, live' }) environment?: Environment;
}
