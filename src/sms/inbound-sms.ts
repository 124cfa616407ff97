import { badRequest, DomainError } from '../platform/errors/domain-error';

export const E164 = /^\+[1-9]\d{6,14}$/;
export const MAX_SMS_TEXT = 1600;

export interface InboundSms {
  from: string;
  to: string;
  text: string;
  provider_message_id: string;
}

/**
 * The inbound webhook's body (contract §11) from its raw bytes: JSON, or a form as carriers post
 * them. Fields beyond the four are the carrier's own and are ignored.
 */
export function parseInboundSms(contentType: string, raw: Buffer): InboundSms {
  const type = contentType.split(';')[0].trim().toLowerCase();
  let body: Record<string, unknown>;
  if (type === 'application/x-www-form-urlencoded') {
    body = Object.fromEntries(new URLSearchParams(raw.toString('utf8')));
  } else if (type === 'application/json' || type.endsWith('+json') || type === '') {
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      throw new DomainError('INVALID_JSON', 'body is not valid JSON', 400);
    }
    if (body === null || typeof body !== 'object' || Array.isArray(body))
      throw badRequest('VALIDATION_ERROR', 'body must be a JSON object');
  } else {
    throw new DomainError(
      'UNSUPPORTED_MEDIA_TYPE',
      'body must be application/json or application/x-www-form-urlencoded',
      415,
    );
  }
  const invalid = (field: string, message: string) => badRequest('VALIDATION_ERROR', message, [{ field, message }]);
  for (const field of ['from', 'to'] as const) {
    if (typeof body[field] !== 'string' || !E164.test(body[field] as string))
      throw invalid(field, `${field} must be an E.164 phone number such as +15551234567`);
  }
  if (typeof body.text !== 'string') throw invalid('text', 'text must be a string');
  if (body.text.length > MAX_SMS_TEXT) throw invalid('text', `text must be at most ${MAX_SMS_TEXT} characters`);
  const id = body.provider_message_id;
  if (typeof id !== 'string' || id.length === 0 || id.length > 128)
    throw invalid('provider_message_id', 'provider_message_id must be a string of 1 to 128 characters');
  return { from: body.from as string, to: body.to as string, text: body.text, provider_message_id: id };
}
