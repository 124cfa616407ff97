import { ArrayMaxSize, ArrayUnique, IsArray, IsBoolean, Matches } from 'class-validator';

export class DataAccessDto {
  @IsArray()
  @ArrayMaxSize(200)
  @ArrayUnique()
  @Matches(/^[A-Za-z][A-Za-z0-9_.-]{0,99}$/, {
    each: true,
    message: 'response_metrics must each be a metric name (letters, digits, _ . -)',
  })
  response_metrics: string[];
  @IsBoolean() show_transcripts: boolean;
}
