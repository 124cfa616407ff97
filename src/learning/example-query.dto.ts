import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsInt,
  IsObject,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { Optional } from '../platform/validation/optional';
import { MAX_EXAMPLE_QUERY_LENGTH } from '../agents/example-queries';

/** A topic made for the words (the target "new topic"): as a topic's POST, the words its first example query. */
export class NewTopicDto {
  @IsString() @MinLength(1) @MaxLength(200) name: string;
  /** the answer; empty until someone writes it on the branch */
  @Optional() @IsString() @MaxLength(100_000) content?: string;
  @Optional() @IsString() @MaxLength(10_000) actions?: string;
  @Optional() @IsBoolean() isActive?: boolean;
}

/**
 * "This should have been topic X": where the words come from (a conversation's user turn, read
 * server-side, or `query` given as they are) and which topic of the branch gets them (`topicId`,
 * or `newTopic`). Exactly one of each pair: example-queries.service.ts says which is missing.
 */
export class AddExampleQueryDto {
  @Optional()
  @IsString()
  @Matches(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,199}$/, { message: 'conversationId must be a conversation id' })
  conversationId?: string;
  /** the turn's index in the conversation (`turns[turnIndex]` of the Conversations API; 0 is the greeting) */
  @Optional() @IsInt() @Min(0) @Max(1_000_000) turnIndex?: number;
  @Optional() @IsString() @MinLength(1) @MaxLength(MAX_EXAMPLE_QUERY_LENGTH) query?: string;
  @Optional()
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{1,100}$/, { message: 'topicId must be a topic id' })
  topicId?: string;
  @Optional() @IsObject() @ValidateNested() @Type(() => NewTopicDto) newTopic?: NewTopicDto;
}
