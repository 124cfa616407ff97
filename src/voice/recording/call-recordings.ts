import { randomBytes, type CipherGCM } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough, Writable, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Inject, Injectable, Optional } from '@nestjs/common';
import type { Logger } from 'pino';
import { ServerSecret } from '../../platform/auth/server-secret';
import { Clock } from '../../platform/clock/clock';
import { CONFIG, type Config } from '../../platform/config/config';
import { LOGGER } from '../../platform/logging/logger';
import { Timers } from '../../process-managers/timers';
import { VOICE_CONFIG, type VoiceConfig } from '../voice-config';
import type { RecordingSink } from './recording-audio';

/** the durable timer that deletes a recording once its retention has passed */
export const RECORDING_RETENTION = 'voice-recording-retention';
const MAGIC = Buffer.from('PRC1', 'ascii');
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = MAGIC.length + IV_BYTES;
/** what the file holds: 8 kHz, 16-bit, two channels (left the caller, right the agent) */
const RATE = 8000;
const CHANNELS = 2;
/** conversation ids are `IN-<uuid>`, `OUT-…`: anything else names no file */
const SAFE_ID = /^[A-Za-z0-9_-]{1,128}$/;
/** one second of the two channels */
const WRITE_BYTES = RATE * CHANNELS * 2;

/** One recording being written as the call goes: sealed piece by piece, kept only once finished. */
export interface RecordingWriter extends RecordingSink {
  /** seals and keeps the file, then schedules its deletion */
  finish(): Promise<void>;
}

/** A stored recording, opened: a WAV file's length and bytes. */
export interface OpenedRecording {
  bytes: number;
  stream: Readable;
}

/** The 44-byte header of a PCM WAV file of `dataBytes` of 8 kHz 16-bit stereo. */
function wavHeader(dataBytes: number): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(CHANNELS, 22);
  header.writeUInt32LE(RATE, 24);
  header.writeUInt32LE(RATE * CHANNELS * 2, 28);
  header.writeUInt16LE(CHANNELS * 2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(dataBytes, 40);
  return header;
}

/**
 * Call recordings under `DATA_DIR/recordings`, one file per conversation, sealed at rest with the
 * server secret (AES-256-GCM: `PRC1`, the IV, the ciphertext of the raw stereo PCM, the tag). A
 * recording is written while the call goes (so a long call never sits in memory), kept under its
 * final name only once sealed, served as a WAV file, and deleted by a durable timer on the
 * platform clock `VOICE_RECORDING_RETENTION_DAYS` after the call.
 */
@Injectable()
export class CallRecordings {
  private readonly dir: string;
  private readonly retentionMs: number;

  constructor(
    @Inject(CONFIG) config: Config,
    @Inject(VOICE_CONFIG) voice: VoiceConfig,
    private readonly secret: ServerSecret,
    private readonly timers: Timers,
    private readonly clock: Clock,
    @Optional() @Inject(LOGGER) private readonly logger: Logger | null = null,
  ) {
    this.dir = path.join(config.dataDir, 'recordings');
    this.retentionMs = voice.recording.retentionDays * 24 * 3600_000;
  }

  /** Starts the recording of a conversation's call. */
  start(conversationId: string): RecordingWriter {
    if (!SAFE_ID.test(conversationId)) throw new Error('not a conversation id');
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const final = this.fileOf(conversationId);
    const partial = `${final}.part`;
    const iv = randomBytes(IV_BYTES);
    const cipher: CipherGCM = this.secret.fileCipher(iv);
    const out = fs.createWriteStream(partial, { mode: 0o600 });
    let failed: Error | null = null;
    out.on('error', (error) => (failed ??= error));
    out.write(Buffer.concat([MAGIC, iv]));
    let finished = false;
    // a second of audio per write, not fifty small ones
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const flush = () => {
      if (pendingBytes > 0 && !failed) out.write(cipher.update(Buffer.concat(pending)));
      pending = [];
      pendingBytes = 0;
    };
    return {
      write: (stereo) => {
        if (finished || failed) return;
        pending.push(stereo);
        pendingBytes += stereo.length;
        if (pendingBytes >= WRITE_BYTES) flush();
      },
      finish: async () => {
        if (finished) return;
        finished = true;
        flush();
        out.write(cipher.final());
        out.end(cipher.getAuthTag());
        await new Promise<void>((resolve) => out.on('close', () => resolve()));
        if (failed) {
          this.logger?.error({ err: failed, conversationId }, 'voice: the call recording could not be written');
          await fs.promises.rm(partial, { force: true });
          return;
        }
        await fs.promises.rename(partial, final);
        await this.timers.schedule({
          id: `${RECORDING_RETENTION}:${conversationId}`,
          owner: RECORDING_RETENTION,
          dueAt: new Date(this.clock.nowMs() + this.retentionMs),
          payload: { conversationId },
        });
      },
    };
  }

  /**
   * The recording as a WAV file, or null when there is none (never made, still being written,
   * deleted) or it fails authentication. Read twice: once to check the tag, then to serve.
   */
  async open(conversationId: string): Promise<OpenedRecording | null> {
    if (!SAFE_ID.test(conversationId)) return null;
    const file = this.fileOf(conversationId);
    let handle: fs.promises.FileHandle;
    try {
      handle = await fs.promises.open(file, 'r');
    } catch {
      return null;
    }
    try {
      const { size } = await handle.stat();
      const dataBytes = size - HEADER_BYTES - TAG_BYTES;
      if (dataBytes < 0) return null;
      const head = Buffer.alloc(HEADER_BYTES);
      const tag = Buffer.alloc(TAG_BYTES);
      await handle.read(head, 0, HEADER_BYTES, 0);
      await handle.read(tag, 0, TAG_BYTES, size - TAG_BYTES);
      if (!head.subarray(0, MAGIC.length).equals(MAGIC)) return null;
      const iv = head.subarray(MAGIC.length);
      const ciphertextOf = () => fs.createReadStream(file, { start: HEADER_BYTES, end: size - TAG_BYTES - 1 });
      // authenticated before a byte is served: an altered file (or another server's) is no recording
      try {
        await pipeline(
          ciphertextOf(),
          this.secret.fileDecipher(iv, tag),
          new Writable({ write: (_c, _e, done) => done() }),
        );
      } catch (error) {
        this.logger?.error({ err: error, conversationId }, 'voice: a call recording failed authentication');
        return null;
      }
      const decipher = this.secret.fileDecipher(iv, tag);
      const body = new PassThrough();
      body.write(wavHeader(dataBytes));
      // altered since the check (a race with a rewrite): the transfer is cut, never completed
      pipeline(ciphertextOf(), decipher, body).catch((error: unknown) => {
        this.logger?.error({ err: error, conversationId }, 'voice: a call recording failed to open');
        body.destroy(error as Error);
      });
      return { bytes: 44 + dataBytes, stream: body };
    } finally {
      await handle.close();
    }
  }

  /** Deletes a recording (retention); nothing to delete is fine. */
  async delete(conversationId: string): Promise<void> {
    if (!SAFE_ID.test(conversationId)) return;
    await fs.promises.rm(this.fileOf(conversationId), { force: true });
  }

  private fileOf(conversationId: string): string {
    return path.join(this.dir, `${conversationId}.rec`);
  }
}
