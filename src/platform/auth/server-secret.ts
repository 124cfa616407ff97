import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  randomBytes,
  timingSafeEqual,
  type CipherGCM,
  type DecipherGCM,
} from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The server's own secret: the HMAC key under which credential values are stored (so a stolen
 * database holds no usable key), and the AES-256-GCM key for secrets the server must read back
 * (SMS webhook secrets), and a third for files sealed as they are written (call recordings). From SERVER_SECRET, else `DATA_DIR/server-secret` (generated, mode 0600).
 * Losing it invalidates every key: back it up with the data.
 */
export class ServerSecret {
  private readonly macKey: Buffer;
  private readonly encKey: Buffer;
  private readonly fileKey: Buffer;

  constructor(secret: string) {
    this.macKey = createHash('sha256').update(`mac:${secret}`).digest();
    this.encKey = createHash('sha256').update(`enc:${secret}`).digest();
    this.fileKey = createHash('sha256').update(`file:${secret}`).digest();
  }

  static resolve(configured: string | undefined, dataDir: string): ServerSecret {
    if (configured) return new ServerSecret(configured);
    const file = path.join(dataDir, 'server-secret');
    fs.mkdirSync(dataDir, { recursive: true });
    try {
      const secret = randomBytes(32).toString('base64url');
      fs.writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
      return new ServerSecret(secret);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      return new ServerSecret(fs.readFileSync(file, 'utf8').trim());
    }
  }

  /** Keyed digest of a credential value: what the read models index and compare. */
  digest(value: string): string {
    return createHmac('sha256', this.macKey).update(value).digest('hex');
  }

  /** Constant-time comparison of two digests (hex). */
  static same(a: string, b: string): boolean {
    const x = Buffer.from(a, 'hex');
    const y = Buffer.from(b, 'hex');
    return x.length === y.length && timingSafeEqual(x, y);
  }

  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.encKey, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join(
      '.',
    );
  }

  /**
   * AES-256-GCM over a file written piece by piece (too large to seal as one string): the caller
   * stores the 12-byte `iv` and the cipher's auth tag beside the ciphertext.
   */
  fileCipher(iv: Buffer): CipherGCM {
    return createCipheriv('aes-256-gcm', this.fileKey, iv);
  }

  /** Opens what fileCipher sealed; the stream fails at its end when the bytes or the tag were altered. */
  fileDecipher(iv: Buffer, tag: Buffer): DecipherGCM {
    const decipher = createDecipheriv('aes-256-gcm', this.fileKey, iv);
    decipher.setAuthTag(tag);
    return decipher;
  }

  decrypt(sealed: string): string {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.encKey, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }
}
