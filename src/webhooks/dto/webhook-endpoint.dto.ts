import {
  Allow,
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import { Optional } from '../../platform/validation/optional';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../webhook-event';

const EVENT_TYPES = { each: true, message: `event_types must each be one of ${WEBHOOK_EVENT_TYPES.join(', ')}` };
const TIMEOUT = { message: 'timeout_ms must be an integer from 1000 to 30000' };

/** POST /v1/webhook-endpoints (contract §13). `url` and `headers` are checked further by the service. */
export class CreateWebhookEndpointDto {
  @Optional() @IsString() @MinLength(1) @MaxLength(200) name?: string;
  @IsString() @MinLength(1) url: string;
  @IsArray()
  @ArrayMinSize(1, { message: 'event_types must name at least one event type' })
  @ArrayMaxSize(WEBHOOK_EVENT_TYPES.length)
  @ArrayUnique()
  @IsIn(WEBHOOK_EVENT_TYPES as unknown as string[], EVENT_TYPES)
  event_types: WebhookEventType[];
  @Allow() headers?: unknown;
  @Optional() @IsInt(TIMEOUT) @Min(1000, TIMEOUT) @Max(30000, TIMEOUT) timeout_ms?: number;
  @Optional() @IsBoolean() enabled?: boolean;
}

/** PATCH: only the fields to change. */
export class PatchWebhookEndpointDto {
  @Optional() @IsString() @MinLength(1) @MaxLength(200) name?: string;
  @Optional() @IsString() @MinLength(1) url?: string;
  @Optional()
  @IsArray()
  @ArrayMinSize(1, { message: 'event_types must name at least one event type' })
  @ArrayMaxSize(WEBHOOK_EVENT_TYPES.length)
  @ArrayUnique()
  @IsIn(WEBHOOK_EVENT_TYPES as unknown as string[], EVENT_TYPES)
  event_types?: WebhookEventType[];
  @Allow() headers?: unknown;
  @Optional() @IsInt(TIMEOUT) @Min(1000, TIMEOUT) @Max(30000, TIMEOUT) timeout_ms?: number;
  @Optional() @IsBoolean() enabled?: boolean;
}
