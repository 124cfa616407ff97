import type { Upcaster } from '../event-store/upcasting';
import type { TurnData } from './conversation.events';

/**
 * TurnRecorded 1 → 2: `apiErrors` (failed model calls in the turn) arrived with the LLM adapter.
 * Turns recorded before it made no model call, so 0 is their true count; version 1 turns recorded
 * after it already carry the field and keep their own value.
 */
const turnRecordedV1ToV2: Upcaster = {
  type: 'TurnRecorded',
  fromVersion: 1,
  upcast: (data: Omit<TurnData, 'apiErrors'> & { apiErrors?: number }): TurnData => ({
    ...data,
    apiErrors: data.apiErrors ?? 0,
  }),
};

export const CONVERSATION_UPCASTERS: Upcaster[] = [turnRecordedV1ToV2];
