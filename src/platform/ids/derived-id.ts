import { hash } from 'node:crypto';

/** A UUID (version 8, RFC 9562 custom) derived from a name: the same name always gives the same id. */
export function derivedUuid(name: string): string {
  // one-shot hash: no Hash object per id (a third cheaper; a binding derives one per event it appends)
  const bytes = hash('sha256', name, 'buffer').subarray(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x80;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
