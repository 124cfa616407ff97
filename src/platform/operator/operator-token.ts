import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import { notAGuess } from '../auth/auth-failure-throttle';
import { unauthorized } from '../errors/domain-error';
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

  /**
   * Throws 401 OPERATOR_TOKEN_INVALID unless `given` (the x-operator-token header) is the token.
   * A header not sent at all is refused too, but is not a guess for the failed-login throttle.
   */
  verify(
    given: string | string[] | undefined,
    message = 'missing or invalid operator token (header x-operator-token)',
  ): void {
    if (this.matches(Array.isArray(given) ? given[0] : given)) return;
    const refusal = unauthorized(message, 'OPERATOR_TOKEN_INVALID');
    throw given === undefined ? notAGuess(refusal) : refusal;
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
