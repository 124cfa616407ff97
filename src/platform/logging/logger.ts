import type { LoggerService } from '@nestjs/common';
import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { prettyLine } from './pretty-line';

/** Query parameters that carry credentials (WebSocket `access_token`, desk `api_key`). */
const SECRET_QUERY = /([?&](?:access_token|api_key|token|key)=)[^&]*/gi;

export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY, '$1[redacted]');
}

export type LogFormat = 'json' | 'pretty';

/** JSON lines by default, for machines; `pretty` for a person at a terminal (pretty-line.ts). */
export function createLogger(level: string, format: LogFormat = 'json'): Logger {
  const options: LoggerOptions = {
    level,
    base: { service: 'parley' },
    timestamp: pino.stdTimeFunctions.isoTime,
    // Headers are not logged at all; these paths guard against anyone logging a request object.
    redact: {
      paths: [
        'req.headers["x-api-key"]',
        'req.headers["x-operator-token"]',
        'req.headers["x-service-auth-token"]',
        'req.headers["x-token"]',
        'req.headers.authorization',
        'headers["x-api-key"]',
        'headers["x-operator-token"]',
        'headers.authorization',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req: (req: { id: string; method: string; url: string }) => ({
        id: req.id,
        method: req.method,
        url: redactUrl(req.url),
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  };
  return format === 'pretty' ? pino(options, prettyStdout()) : pino(options);
}

/** Colours only for a terminal, and not under NO_COLOR (no-color.org). */
function prettyStdout(): DestinationStream {
  const colors = process.stdout.isTTY === true && !process.env.NO_COLOR;
  return { write: (line: string) => void process.stdout.write(prettyLine(line, colors)) };
}

/** Routes Nest's own log lines (bootstrap, routes, errors) into the same stream as the app's. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}
  log(message: unknown, context?: string) {
    this.logger.info({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string) {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string) {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string) {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string) {
    this.logger.trace({ context }, String(message));
  }
}

export const LOGGER = Symbol('Logger');
