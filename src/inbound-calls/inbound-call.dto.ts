import { ArrayMaxSize, IsArray, IsBoolean, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { E164 } from '../accounts/dto/account.dto';
import { Optional } from '../platform/validation/optional';

const MAX_UTTERANCES = 50;

/** A simulated inbound call for the embedded carrier (contract §18). */
export class SimulateInboundCallDto {
  @Matches(E164, { message: 'from must be an E.164 phone number such as +15551234567' }) from: string;
  @Matches(E164, { message: 'to must be an E.164 phone number such as +15551234567' }) to: string;
  @IsArray({ message: 'utterances must be an array of strings' })
  @ArrayMaxSize(MAX_UTTERANCES, { message: `utterances must hold at most ${MAX_UTTERANCES} items` })
  @IsString({ each: true, message: 'utterances must be an array of strings' })
  @MinLength(1, { each: true, message: 'utterances must not hold an empty string' })
  @MaxLength(4000, { each: true, message: 'each of utterances must be at most 4000 characters' })
  utterances: string[];
  @Optional() @IsBoolean({ message: 'hang_up must be true or false' }) hang_up?: boolean;
}
