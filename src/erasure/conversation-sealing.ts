import { createCipheriv, createDecipheriv, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import type { NewEvent, RecordedEvent } from '../event-store/event-store.port';
import type { EventSealing } from '../event-store/sealing';
import type { ConversationKey, ConversationKeyStore } from './conversation-keys';
import { PERSONAL_FIELDS, sealingKeyOf } from './personal-fields';

/** A sealed event's data: the clear fields, and the personal ones in `sealed`. */
interface SealedPart {
  /** the names of the fields inside `box` */
  fields: string[];
  /**
   * AES-256-GCM over the fields' JSON: `v2.<iv|tag|ciphertext>`, one base64url text (one decode
   * to open it); `v1.<iv>.<tag>.<ciphertext>`, each apart, in logs written before.
   */
  box: string;
}

/** Keys kept in memory; a conversation's events come together, and a catch-up reads them in order. */
const CACHED_KEYS = 50_000;

type Data = Record<string, unknown>;
type Key = KeyObject | 'erased';

/**
 * Crypto-shredding for conversations (contract §24): each conversation's personal fields
 * (personal-fields.ts) are sealed at append time under a data key of that conversation, kept in
 * the key store, never in the log. Readers get them opened; once the key is destroyed they read
 * as erased, in every read model, export and replay, while the log itself stays whole.
 */
export class ConversationSealing implements EventSealing {
  /** As KeyObjects: a decipher made from one costs less than from the key's bytes. */
  private readonly keys = new Map<string, Key>();

  constructor(private readonly store: ConversationKeyStore) {}

  async seal(streamId: string, events: NewEvent[]): Promise<NewEvent[]> {
    let out: NewEvent[] | null = null;
    for (let i = 0; i < events.length; i++) {
      const event = events[i];
      const data = event.data as Data;
      const fields = personalIn(event.type, data);
      if (!fields) continue;
      const keyId = sealingKeyOf(streamId, data);
      if (keyId === null) continue;
      const key = await this.keyFor(keyId);
      out ??= events.slice();
      // an erased conversation stores nothing personal again, not even under a new key
      if (key === 'erased') {
        out[i] = { ...event, data: { ...data, ...erasedValues(event.type, fields) } };
        continue;
      }
      const clear: Data = {};
      const personal: Data = {};
      for (const [name, value] of Object.entries(data)) (fields.includes(name) ? personal : clear)[name] = value;
      const sealed: SealedPart = { fields, box: encrypt(key, JSON.stringify(personal), aad(streamId, event)) };
      out[i] = { ...event, data: { ...clear, sealed } };
    }
    return out ?? events;
  }

  async open(events: RecordedEvent[]): Promise<RecordedEvent[]> {
    let missing: string[] | null = null;
    // the key of each sealed event, by index; null while none is
    let keyIds: Array<string | null> | null = null;
    for (let i = 0; i < events.length; i++) {
      const event = events[i];
      // every process sees the erasure in the log: a key it still holds is dropped there
      if (event.type === 'ConversationErased') {
        const conversationId = sealingKeyOf(event.streamId, event.data);
        if (conversationId !== null) this.keys.set(conversationId, 'erased');
        continue;
      }
      if (!mayBeSealed(event)) continue;
      const keyId = sealingKeyOf(event.streamId, event.data);
      if (keyId === null) continue;
      (keyIds ??= new Array<string | null>(events.length).fill(null))[i] = keyId;
      if (!this.keys.has(keyId)) (missing ??= []).push(keyId);
    }
    if (!keyIds) return events;
    if (missing) await this.load([...new Set(missing)]);
    const out = events.slice();
    for (let i = 0; i < events.length; i++) {
      const keyId = keyIds[i];
      if (keyId !== null) out[i] = this.opened(events[i], keyId);
    }
    return out;
  }

  /** Forgets a conversation's key here at once (the erasing process; the others drop it at the event). */
  forget(conversationId: string): void {
    this.keys.set(conversationId, 'erased');
  }

  private opened(event: RecordedEvent, keyId: string): RecordedEvent {
    const stored = event.data as Data & { sealed: SealedPart };
    const sealed = stored.sealed;
    const key = this.keys.get(keyId);
    let personal: Data;
    if (!key || key === 'erased') personal = erasedValues(event.type, sealed.fields);
    else
      try {
        personal = JSON.parse(decrypt(key, sealed.box, aad(event.streamId, event))) as Data;
      } catch {
        // a box that does not open under its key (altered, or moved from another event) reads as erased
        personal = erasedValues(event.type, sealed.fields);
      }
    return withData(event, openedData(stored, personal));
  }

  private async keyFor(conversationId: string): Promise<Key> {
    const cached = this.keys.get(conversationId);
    if (cached) return cached;
    const key =
      (await this.store.find([conversationId])).get(conversationId) ?? (await this.store.create(conversationId));
    return this.remember(conversationId, key);
  }

  private async load(ids: string[]): Promise<void> {
    const found = await this.store.find(ids);
    // no key at all: sealed under a key since lost (a key store restored from an older backup)
    for (const id of ids) this.remember(id, found.get(id) ?? 'erased');
  }

  private remember(id: string, stored: ConversationKey): Key {
    if (this.keys.size >= CACHED_KEYS) this.keys.delete(this.keys.keys().next().value!);
    const key = stored === 'erased' ? stored : createSecretKey(stored);
    this.keys.set(id, key);
    return key;
  }
}

/**
 * The clear fields with the personal ones back in place of `sealed`. A loop rather than rest and
 * spread: those copy through V8's slow generic path, which cost more than the decryption itself.
 */
function openedData(stored: Data, personal: Data): Data {
  const data: Data = {};
  for (const name in stored) if (name !== 'sealed') data[name] = stored[name];
  for (const name in personal) data[name] = personal[name];
  return data;
}

/** The event with other data: its fields copied by name, since a store's event may read them through getters. */
const withData = (event: RecordedEvent, data: Data): RecordedEvent => ({
  id: event.id,
  streamId: event.streamId,
  revision: event.revision,
  position: event.position,
  type: event.type,
  data,
  metadata: event.metadata,
});

function personalIn(type: string, data: Data): string[] | null {
  const rule = PERSONAL_FIELDS[type];
  if (!rule || data === null || typeof data !== 'object') return null;
  // an empty text (or none) holds nothing personal: left clear, it reads the same before and after erasure
  const fields = Object.keys(rule).filter(
    (name) => data[name] !== undefined && data[name] !== null && data[name] !== '',
  );
  return fields.length ? fields : null;
}

function erasedValues(type: string, fields: string[]): Data {
  const rule = PERSONAL_FIELDS[type] ?? {};
  const out: Data = {};
  // a fresh object or array each time: a reader may change what it was given
  for (const name of fields) out[name] = placeholder(rule[name]);
  return out;
}

const placeholder = (value: unknown): unknown =>
  Array.isArray(value) ? [] : value !== null && typeof value === 'object' ? {} : (value ?? null);

const isSealed = (data: unknown): boolean =>
  data !== null && typeof data === 'object' && typeof (data as { sealed?: unknown }).sealed === 'object';

/** Only the event types with personal fields can be sealed: the others' data is never parsed here. */
const mayBeSealed = (event: RecordedEvent): boolean =>
  Object.hasOwn(PERSONAL_FIELDS, event.type) && isSealed(event.data);

/** Binds a box to its event: moved into another event, it does not open. */
const aad = (streamId: string, event: { id: string; type: string }) =>
  Buffer.from(`${streamId}\n${event.type}\n${event.id}`);

function encrypt(key: KeyObject, plain: string, additional: Buffer): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(additional);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return `v2.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
}

const IV_BYTES = 12;
const TAG_BYTES = 16;

function decrypt(key: KeyObject, box: string, additional: Buffer): string {
  let iv: Buffer, tag: Buffer, body: Buffer;
  if (box.startsWith('v2.')) {
    const all = Buffer.from(box.slice(3), 'base64url');
    if (all.length < IV_BYTES + TAG_BYTES) throw new Error('not a sealed box');
    [iv, tag, body] = [
      all.subarray(0, IV_BYTES),
      all.subarray(IV_BYTES, IV_BYTES + TAG_BYTES),
      all.subarray(IV_BYTES + TAG_BYTES),
    ];
  } else {
    const [version, ivText, tagText, bodyText] = box.split('.');
    if (version !== 'v1' || !ivText || !tagText || bodyText === undefined) throw new Error('not a sealed box');
    [iv, tag, body] = [
      Buffer.from(ivText, 'base64url'),
      Buffer.from(tagText, 'base64url'),
      Buffer.from(bodyText, 'base64url'),
    ];
  }
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAAD(additional);
  decipher.setAuthTag(tag);
  const out = decipher.update(body);
  decipher.final();
  return out.toString('utf8');
}
