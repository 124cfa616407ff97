import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import { base32 } from '../ids/ids';

/**
 * The operator credential (contract §1): OPERATOR_TOKEN, else the token stored in
 * DATA_DIR/operator-token, else a new one written there with mode 0600. The token itself is never
 * logged, only the file's path. Only its digest stays in memory.
 */
export class OperatorToken {
  private constructor(private readonly digest: Buffer) {}

  static resolve(configured: string | null, dataDir: string, logger: Logger): OperatorToken {
    if (configured) return new OperatorToken(sha256(configured));
    const file = path.join(dataDir, 'operator-token');
    fs.mkdirSync(dataDir, { recursive: true });
    try {
      const token = `op_${base32(randomBytes(32))}`;
      fs.writeFileSync(file, `${token}\n`, { mode: 0o600, flag: 'wx' });
      logger.info({ file }, 'generated an operator token; read it from this file');
      return new OperatorToken(sha256(token));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const token = fs.readFileSync(file, 'utf8').trim();
      logger.info({ file }, 'using the operator token stored in this file');
      return new OperatorToken(sha256(token));
    }
  }

  /** Constant-time: comparing fixed-length digests does not reveal how much of a guess matched. */
  matches(candidate: string | undefined): boolean {
    if (!candidate) return false;
    return timingSafeEqual(sha256(candidate), this.digest);
  }
}

function sha256(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
