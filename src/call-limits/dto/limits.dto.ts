import { IsInt, Max, Min } from 'class-validator';

export class SetLimitsDto {
  @IsInt({ message: 'concurrent_calls must be an integer' })
  @Min(0, { message: 'concurrent_calls must be at least 0' })
  @Max(100_000, { message: 'concurrent_calls must be at most 100000' })
  concurrent_calls: number;
}
