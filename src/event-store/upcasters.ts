import { CONVERSATION_UPCASTERS } from '../conversations/conversation.upcasters';
import type { Upcaster } from './upcasting';

/**
 * Every upcaster of every context, applied to all reads. A context that changes an event's shape
 * bumps the version its decider emits and adds the upcaster from the old version here
 * (docs/recipes.md, "Change an event's schema").
 */
export const UPCASTERS: Upcaster[] = [...CONVERSATION_UPCASTERS];
