import { Type } from 'class-transformer';
import {
  Allow,
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsObject,
  IsString,
  Matches,
  MaxLength,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { Optional, OptionalOrNull } from '../../platform/validation/optional';
import { ENVIRONMENTS, type Environment } from '../agent.events';

export class ResponseSettingsDto {
  @IsString() @MaxLength(2000) greeting: string;
  @Optional()
  @Matches(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, {
    message: 'responseSettings.languageCode must be a language tag such as en-GB',
  })
  languageCode?: string;
}

export class CreateAgentDto {
  @IsString() @MinLength(1) @MaxLength(200) name: string;
  @IsObject() @ValidateNested() @Type(() => ResponseSettingsDto) responseSettings: ResponseSettingsDto;
}

export class CreateBranchDto {
  @IsString()
  @Matches(/^[A-Za-z0-9][A-Za-z0-9._/-]{0,99}$/, { message: 'branchName must be 1-100 letters, digits, . _ / -' })
  branchName: string;
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
  @Optional() @IsString() @MaxLength(10_000) actions?: string;
  @Optional() @IsBoolean() isActive?: boolean;
}

export class PatchTopicDto {
  @Optional() @IsString() @MinLength(1) @MaxLength(200) name?: string;
  @Optional() @IsString() @MaxLength(100_000) content?: string;
  @Optional() @IsObject() @ValidateNested() @Type(() => ExampleQueriesDto) exampleQueries?: ExampleQueriesDto;
  @Optional() @IsString() @MaxLength(10_000) actions?: string;
  @Optional() @IsBoolean() isActive?: boolean;
}

export class ConflictResolutionDto {
  @IsArray() @ArrayMaxSize(2) @IsString({ each: true }) path: string[];
  @IsIn(['ours', 'theirs', 'base'], { message: 'strategy must be one of ours, theirs, base' }) strategy:
    'ours' | 'theirs' | 'base';
  /** an explicit value, checked by the merge; null deletes a topic, test or tool, and is a setting's default */
  @OptionalOrNull() @Allow() value?: unknown;
}

export class MergeDto {
  @Optional() @IsString() @MaxLength(2000) deploymentMessage?: string;
  @Optional()
  @IsArray()
  @ArrayMaxSize(10_000)
  @ValidateNested({ each: true })
  @Type(() => ConflictResolutionDto)
  conflictResolutions?: ConflictResolutionDto[];
}

export class PromoteDto {
  /** `sandbox` is a known environment but never a promotion target: the decider answers 422 for it. */
  @Optional()
  @IsIn(ENVIRONMENTS as unknown as string[], { message: 'targetEnvironment must be one of pre-release, live' })
  targetEnvironment?: Environment;
  @Optional() @IsString() @MaxLength(2000) deploymentMessage?: string;
  /** contract §19: refuse (409 TESTS_FAILING) unless the source deployment's latest test run passed */
  @Optional() @IsBoolean() requireTestsPassing?: boolean;
}

export class RollbackDto {
  @Optional() @IsString() @MaxLength(2000) deploymentMessage?: string;
}

export class DeploymentsQuery {
  @Optional()
  @IsIn(ENVIRONMENTS as unknown as string[], { message: 'environment must be one of sandbox, pre-release, live' })
  environment?: Environment;
}
