import { IsIn, Matches, ValidateBy } from 'class-validator';
import { Optional } from '../platform/validation/optional';
import { COUNTRY_CODE, E164, metadataProblem } from './call-request';
import { ENCRYPTIONS, type Encryption } from './outbound-call.events';

const E164_MESSAGE = (field: string) => `${field} must be an E.164 phone number such as +15551234567`;

/** A string map within the limits of call-request.ts; the message names the offending entry. */
const IsCallMetadata = () =>
  ValidateBy({
    name: 'isCallMetadata',
    validator: {
      validate: (value: unknown) => metadataProblem(value) === null,
      defaultMessage: (args) => metadataProblem(args?.value) ?? 'metadata is invalid',
    },
  });

export class PlaceOutboundCallDto {
  @Matches(E164, { message: E164_MESSAGE('to_number') }) to_number: string;
  @Optional()
  @Matches(COUNTRY_CODE, { message: 'country_code must be an ISO 3166-1 alpha-2 country code such as US' })
  country_code?: string;
  @Optional() @Matches(E164, { message: E164_MESSAGE('from_number') }) from_number?: string;
  @Optional() @IsCallMetadata() metadata?: Record<string, string>;
  @Optional()
  @IsIn(ENCRYPTIONS as unknown as string[], { message: `encryption must be one of ${ENCRYPTIONS.join(', ')}` })
  encryption?: Encryption;
}
