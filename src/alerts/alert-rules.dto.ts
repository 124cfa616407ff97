import { IsBoolean, IsIn, IsInt, IsOptional, IsString, MaxLength, Min, MinLength, ValidateIf } from 'class-validator';
import { METRICS, OPERATORS, WINDOWS, type Metric, type Operator, type WindowDuration } from './alert-rule.events';

const oneOf = (name: string, values: readonly string[]) => ({ message: `${name} must be one of ${values.join(', ')}` });
const NON_NEGATIVE = { message: 'threshold_value must be a non-negative integer' };

export class CreateAlertRuleDto {
  @IsString() @MinLength(1) @MaxLength(200) name: string;
  /** null or absent: the rule watches the whole account */
  @IsOptional() @ValidateIf((_, v) => v !== null) @IsString() @MaxLength(80) project_id?: string | null;
  @IsIn(METRICS as unknown as string[], oneOf('metric', METRICS)) metric: Metric;
  @IsIn(OPERATORS as unknown as string[], oneOf('operator', OPERATORS)) operator: Operator;
  @IsInt(NON_NEGATIVE) @Min(0, NON_NEGATIVE) threshold_value: number;
  @IsIn(WINDOWS as unknown as string[], oneOf('window_duration', WINDOWS)) window_duration: WindowDuration;
  @IsOptional() @IsBoolean() enabled?: boolean;
}

/** PATCH: flat JSON with only the fields to change (interface.md "Alerts API"). */
export class PatchAlertRuleDto {
  @IsOptional() @IsString() @MinLength(1) @MaxLength(200) name?: string;
  @IsOptional() @ValidateIf((_, v) => v !== null) @IsString() @MaxLength(80) project_id?: string | null;
  @IsOptional() @IsIn(METRICS as unknown as string[], oneOf('metric', METRICS)) metric?: Metric;
  @IsOptional() @IsIn(OPERATORS as unknown as string[], oneOf('operator', OPERATORS)) operator?: Operator;
  @IsOptional() @IsInt(NON_NEGATIVE) @Min(0, NON_NEGATIVE) threshold_value?: number;
  @IsOptional() @IsIn(WINDOWS as unknown as string[], oneOf('window_duration', WINDOWS)) window_duration?: WindowDuration;
  @IsOptional() @IsBoolean() enabled?: boolean;
}
