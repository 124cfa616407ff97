import { IsBoolean, IsIn, IsInt, IsString, MaxLength, Min, MinLength } from 'class-validator';
import { Optional, OptionalOrNull } from '../platform/validation/optional';
import { METRICS, OPERATORS, WINDOWS, type Metric, type Operator, type WindowDuration } from './alert-rule.events';

const oneOf = (name: string, values: readonly string[]) => ({ message: `${name} must be one of ${values.join(', ')}` });
const NON_NEGATIVE = { message: 'threshold_value must be a non-negative integer' };

export class CreateAlertRuleDto {
  @IsString() @MinLength(1) @MaxLength(200) name: string;
  /** null or absent: the rule watches the whole account */
  @OptionalOrNull() @IsString() @MaxLength(80) project_id?: string | null;
  @IsIn(METRICS as unknown as string[], oneOf('metric', METRICS)) metric: Metric;
  @IsIn(OPERATORS as unknown as string[], oneOf('operator', OPERATORS)) operator: Operator;
  @IsInt(NON_NEGATIVE) @Min(0, NON_NEGATIVE) threshold_value: number;
  @IsIn(WINDOWS as unknown as string[], oneOf('window_duration', WINDOWS)) window_duration: WindowDuration;
  @Optional() @IsBoolean() enabled?: boolean;
}

/** PATCH: flat JSON with only the fields to change (interface.md "Alerts API"). */
export class PatchAlertRuleDto {
  @Optional() @IsString() @MinLength(1) @MaxLength(200) name?: string;
  @OptionalOrNull() @IsString() @MaxLength(80) project_id?: string | null;
  @Optional() @IsIn(METRICS as unknown as string[], oneOf('metric', METRICS)) metric?: Metric;
  @Optional() @IsIn(OPERATORS as unknown as string[], oneOf('operator', OPERATORS)) operator?: Operator;
  @Optional() @IsInt(NON_NEGATIVE) @Min(0, NON_NEGATIVE) threshold_value?: number;
  @Optional() @IsIn(WINDOWS as unknown as string[], oneOf('window_duration', WINDOWS)) window_duration?: WindowDuration;
  @Optional() @IsBoolean() enabled?: boolean;
}
