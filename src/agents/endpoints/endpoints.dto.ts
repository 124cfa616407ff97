import { applyDecorators } from '@nestjs/common';
import { IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { Optional } from '../../platform/validation/optional';
import { ENDPOINT_NAME, ENDPOINT_NAME_RULE } from '../runtime-settings';

/* The fields every operator endpoint list takes (sealed-endpoints.ts), as decorators both DTOs apply. */
const EndpointName = () =>
  applyDecorators(IsString(), Matches(ENDPOINT_NAME, { message: `name must be ${ENDPOINT_NAME_RULE}` }));
const BaseUrl = () =>
  applyDecorators(
    IsString(),
    MaxLength(2000),
    Matches(/^https?:\/\/[^\s/?#@]+(\/[^\s?#]*)?$/, {
      message: 'base_url must be an http or https URL without credentials, query or fragment',
    }),
  );
const ApiKey = () => applyDecorators(Optional(), IsString(), MinLength(1), MaxLength(4000));

export class AddLlmEndpointDto {
  @EndpointName() name: string;
  @BaseUrl() base_url: string;
  @ApiKey() api_key?: string;
}

export class AddEmbeddingEndpointDto {
  @EndpointName() name: string;
  @BaseUrl() base_url: string;
  @ApiKey() api_key?: string;
  /** the embeddings model every call asks for */
  @IsString() @MinLength(1) @MaxLength(200) model: string;
}
