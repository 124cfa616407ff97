import { createHash, createHmac } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ServerSecret } from './server-secret';

describe('ServerSecret', () => {
  const secret = new ServerSecret('a-server-secret-of-at-least-32-characters');

  it('digests a value deterministically as 64 hex characters (HMAC-SHA256)', () => {
    const d = secret.digest('sk_abc');
    expect(d).toMatch(/^[0-9a-f]{64}$/);
    expect(secret.digest('sk_abc')).toBe(d);
    expect(secret.digest('sk_abd')).not.toBe(d);
  });

  it('is keyed: another secret gives another digest, and it is not a plain hash of the value', () => {
    const other = new ServerSecret('another-server-secret-of-32-characters!!');
    expect(other.digest('sk_abc')).not.toBe(secret.digest('sk_abc'));
    expect(secret.digest('sk_abc')).not.toBe(createHash('sha256').update('sk_abc').digest('hex'));
  });

  it('two values with a long common prefix have unrelated digests', () => {
    const base = `sk_${'a'.repeat(36)}`;
    const a = secret.digest(`${base}bbbb`);
    const b = secret.digest(`${base}cccc`);
    let common = 0;
    while (common < a.length && a[common] === b[common]) common++;
    expect(common).toBeLessThan(6);
    // about half of the 256 bits differ
    const x = Buffer.from(a, 'hex');
    const y = Buffer.from(b, 'hex');
    let differing = 0;
    for (let i = 0; i < x.length; i++) for (let v = x[i] ^ y[i]; v; v &= v - 1) differing++;
    expect(differing).toBeGreaterThan(80);
    expect(differing).toBeLessThan(176);
  });

  it('same() compares digests', () => {
    const d = secret.digest('x');
    expect(ServerSecret.same(d, d)).toBe(true);
    expect(ServerSecret.same(d, secret.digest('y'))).toBe(false);
    expect(ServerSecret.same(d, d.slice(0, 62))).toBe(false);
    expect(ServerSecret.same(d, '')).toBe(false);
  });

  it('seals and opens a secret; tampering is detected', () => {
    const sealed = secret.encrypt('whsec_topsecret');
    expect(sealed).not.toContain('topsecret');
    expect(secret.decrypt(sealed)).toBe('whsec_topsecret');
    expect(secret.encrypt('whsec_topsecret')).not.toBe(sealed);
    const parts = sealed.split('.');
    const body = Buffer.from(parts[3], 'base64url');
    body[0] ^= 1;
    parts[3] = body.toString('base64url');
    expect(() => secret.decrypt(parts.join('.'))).toThrow();
    expect(() => new ServerSecret('another-server-secret-of-32-characters!!').decrypt(sealed)).toThrow();
    expect(() => secret.decrypt('garbage')).toThrow();
  });

  describe('resolve', () => {
    let dir: string;
    beforeEach(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-secret-'));
    });
    afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('uses the configured secret and writes nothing', () => {
      const s = ServerSecret.resolve('configured-secret-of-at-least-32-chars', dir);
      expect(s.digest('v')).toBe(new ServerSecret('configured-secret-of-at-least-32-chars').digest('v'));
      expect(fs.existsSync(path.join(dir, 'server-secret'))).toBe(false);
    });

    it('generates DATA_DIR/server-secret with mode 0600 and reuses it on the next start', () => {
      const first = ServerSecret.resolve(undefined, dir);
      const file = path.join(dir, 'server-secret');
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(fs.readFileSync(file, 'utf8').trim().length).toBeGreaterThanOrEqual(32);
      const second = ServerSecret.resolve(undefined, dir);
      expect(second.digest('v')).toBe(first.digest('v'));
      expect(second.decrypt(first.encrypt('p'))).toBe('p');
    });

    it('creates a missing data directory', () => {
      const nested = path.join(dir, 'a', 'b');
      ServerSecret.resolve(undefined, nested);
      expect(fs.existsSync(path.join(nested, 'server-secret'))).toBe(true);
    });
  });
});

describe('ServerSecret.digest is HMAC-SHA-256 (RFC 2104)', () => {
  it('equals createHmac with the derived key, byte for byte, for ASCII and non-ASCII values', () => {
    const secretText = 'a-server-secret-that-is-long-enough-0123456789';
    const macKey = createHash('sha256').update(`mac:${secretText}`).digest();
    const s = new ServerSecret(secretText);
    for (const value of ['sk_abc', '', 'ct_ünïcødé-✓', 'x'.repeat(500)]) {
      expect(s.digest(value)).toBe(createHmac('sha256', macKey).update(value).digest('hex'));
    }
  });
});
