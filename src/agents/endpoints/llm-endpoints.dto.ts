import { IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { Optional } from '../../platform/validation/optional';
import { ENDPOINT_NAME, ENDPOINT_NAME_RULE } from '../runtime-settings';

export class AddLlmEndpointDto {
  @IsString() @Matches(ENDPOINT_NAME, { message: `name must be ${ENDPOINT_NAME_RULE}` }) name: string;
  @IsString()
  @MaxLength(2000)
  @Matches(/^https?:\/\/[^\s/?#@]+(\/[^\s?#]*)?$/, {
    message: 'base_url must be an http or https URL without credentials, query or fragment',
  })
  base_url: string;
  @Optional() @IsString() @MinLength(1) @MaxLength(4000) api_key?: string;
}
