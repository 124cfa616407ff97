import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsObject,
  IsString,
  MaxLength,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { Optional } from '../../platform/validation/optional';

/** contract §19: what a turn's answer must do; every field optional. */
export class TestExpectationDto {
  @Optional() @IsString() @MaxLength(200) topic?: string;
  @Optional() @IsString() @MinLength(1) @MaxLength(2000) contains?: string;
  @Optional() @IsString() @MinLength(1) @MaxLength(2000) not_contains?: string;
  @Optional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  actions?: string[];
  @Optional() @IsBoolean() handoff?: boolean;
  @Optional() @IsBoolean() out_of_domain?: boolean;
  @Optional() @IsBoolean() end_conversation?: boolean;
}

export class TestTurnDto {
  @IsString() @MaxLength(4000) user: string;
  @Optional() @IsObject() @ValidateNested() @Type(() => TestExpectationDto) expect?: TestExpectationDto;
}

/** A case runs one conversation: a bounded number of turns, so a run's length is bounded too. */
const MAX_TURNS = 50;

export class CreateTestCaseDto {
  @IsString() @MinLength(1) @MaxLength(200) name: string;
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_TURNS)
  @ValidateNested({ each: true })
  @Type(() => TestTurnDto)
  turns: TestTurnDto[];
  /** the conversation's state when it starts (the built-in keys always win) */
  @Optional() @IsObject() state?: Record<string, unknown>;
}

export class PatchTestCaseDto {
  @Optional() @IsString() @MinLength(1) @MaxLength(200) name?: string;
  @Optional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_TURNS)
  @ValidateNested({ each: true })
  @Type(() => TestTurnDto)
  turns?: TestTurnDto[];
  @Optional() @IsObject() state?: Record<string, unknown>;
}

export class TestRunsQuery {
  @Optional() @IsString() @MaxLength(100) deploymentId?: string;
}
