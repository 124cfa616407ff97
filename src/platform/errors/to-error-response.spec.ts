import { BadRequestException, HttpException, NotFoundException } from '@nestjs/common';
import { WrongExpectedRevisionError } from '../../event-store/errors';
import { DomainError } from './domain-error';
import { toErrorResponse } from './to-error-response';

describe('toErrorResponse', () => {
  const envelope = (status: number, code: string, message: string) => ({
    status,
    body: { success: false, error: message, error_id: 'cid', error_code: code, error_message: message, data: null },
  });

  it('maps a domain error to its status, code, data and headers', () => {
    const r = toErrorResponse(
      new DomainError('MERGE_CONFLICT', 'conflicts', 400, { conflicts: [1] }, [], { 'retry-after': '2' }),
      'cid',
      '/v1/agents/x',
    );
    expect(r).toMatchObject({ status: 400, headers: { 'retry-after': '2' }, internal: false });
    expect(r.body).toEqual({
      success: false,
      error: 'conflicts',
      error_id: 'cid',
      error_code: 'MERGE_CONFLICT',
      error_message: 'conflicts',
      data: { conflicts: [1] },
    });
  });

  it('adds message and errors on the Alerts API and detail on SMS', () => {
    const fields = [{ field: 'metric', message: 'metric must be one of ...' }];
    expect(
      toErrorResponse(new DomainError('VALIDATION_ERROR', 'bad', 400, null, fields), 'cid', '/v1/alert-rules').body,
    ).toMatchObject({ message: 'bad', errors: fields });
    expect(toErrorResponse(new DomainError('BAD', 'bad', 400), 'cid', '/v1/outbound-sms').body).toMatchObject({
      detail: 'bad',
    });
  });

  it('maps Nest HTTP exceptions by status', () => {
    expect(toErrorResponse(new NotFoundException('Cannot GET /x'), 'cid', '/x')).toMatchObject(
      envelope(404, 'NOT_FOUND', 'Cannot GET /x'),
    );
    expect(toErrorResponse(new BadRequestException(['a', 'b']), 'cid', '/x').body.error_code).toBe('BAD_REQUEST');
  });

  it('maps Fastify body errors wrapped by Nest to clear codes', () => {
    const tooLarge = new HttpException('Request body is too large', 413, {
      cause: Object.assign(new Error('x'), { code: 'FST_ERR_CTP_BODY_TOO_LARGE', statusCode: 413 }),
    });
    expect(toErrorResponse(tooLarge, 'cid', '/x')).toMatchObject(
      envelope(413, 'PAYLOAD_TOO_LARGE', 'request body is larger than 1 MiB'),
    );
    const badJson = Object.assign(new Error('Body is not valid JSON'), {
      code: 'FST_ERR_CTP_INVALID_JSON_BODY',
      statusCode: 400,
    });
    expect(toErrorResponse(badJson, 'cid', '/x')).toMatchObject(
      envelope(400, 'INVALID_JSON', 'body is not valid JSON'),
    );
  });

  it("maps Fastify's router and media-type errors to codes that name the problem", () => {
    const fst = (code: string, statusCode: number) => Object.assign(new Error(`'/%' raw text`), { code, statusCode });
    expect(toErrorResponse(fst('FST_ERR_BAD_URL', 400), 'cid', '/%')).toMatchObject(
      envelope(400, 'INVALID_URL', 'the URL is not valid (malformed percent-encoding)'),
    );
    expect(toErrorResponse(fst('FST_ERR_CTP_INVALID_MEDIA_TYPE', 415), 'cid', '/x')).toMatchObject(
      envelope(415, 'UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json'),
    );
    expect(toErrorResponse(fst('FST_ERR_MAX_PARAM_LENGTH', 414), 'cid', '/x')).toMatchObject(
      envelope(414, 'URI_TOO_LONG', 'a path segment of the URL is too long'),
    );
  });

  it('turns a lost optimistic-concurrency race into 409', () => {
    expect(toErrorResponse(new WrongExpectedRevisionError('s', 1n, 2n), 'cid', '/x').status).toBe(409);
  });

  it('never leaks an unknown error: 500 with a generic message, flagged internal', () => {
    const r = toErrorResponse(new Error('SQLITE_CORRUPT at /secret/path'), 'cid', '/x');
    expect(r.status).toBe(500);
    expect(r.internal).toBe(true);
    expect(JSON.stringify(r.body)).not.toContain('secret');
  });
  it('answers 503 DATABASE_UNAVAILABLE with Retry-After when a database cannot be reached', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const shutdown = Object.assign(new Error('query failed'), {
      driverError: Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
    });
    for (const error of [refused, shutdown, new Error('Connection terminated unexpectedly')]) {
      const r = toErrorResponse(error, 'cid', '/x');
      expect({ status: r.status, code: r.body.error_code, retry: r.headers['retry-after'] }).toEqual({
        status: 503,
        code: 'DATABASE_UNAVAILABLE',
        retry: '1',
      });
      expect(JSON.stringify(r.body)).not.toContain('5432');
    }
    // a customer endpoint that refused is not the database: still the generic 500
    const fetchFailed = Object.assign(new TypeError('fetch failed'), { cause: refused });
    expect(toErrorResponse(fetchFailed, 'cid', '/x').status).toBe(500);
    // nor is a query the database refused for what it asked
    const syntax = Object.assign(new Error('syntax error'), { code: '42601' });
    expect(toErrorResponse(syntax, 'cid', '/x').status).toBe(500);
  });
});
