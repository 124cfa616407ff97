import { IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { Optional } from '../platform/validation/optional';
import { E164, MAX_SMS_TEXT } from './inbound-sms';

const E164_MESSAGE = (field: string) => `${field} must be an E.164 phone number such as +15551234567`;

/** POST /v1/outbound-sms (contract §11). */
export class OutboundSmsDto {
  @Matches(E164, { message: E164_MESSAGE('user_number') }) user_number: string;
  @IsString()
  @MinLength(1, { message: 'message must not be empty' })
  @MaxLength(MAX_SMS_TEXT, { message: `message must be at most ${MAX_SMS_TEXT} characters` })
  message: string;
  @Optional() @Matches(E164, { message: E164_MESSAGE('agent_number') }) agent_number?: string;
}
