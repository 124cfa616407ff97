import type { Upcaster } from './upcasting';

/**
 * Every upcaster of every context, applied to all reads. A context that changes an event's shape
 * bumps its schemaVersion and adds the upcaster from the old version here.
 */
export const UPCASTERS: Upcaster[] = [];
