import { parseInboundSms } from './inbound-sms';

const json = (body: unknown) => Buffer.from(JSON.stringify(body));
const ok = { from: '+15550001111', to: '+15550002222', text: 'hi', provider_message_id: 'SM1' };

describe('parseInboundSms', () => {
  it('reads JSON and form bodies, ignoring the carrier’s extra fields', () => {
    expect(parseInboundSms('application/json; charset=utf-8', json({ ...ok, AccountSid: 'AC1' }))).toEqual(ok);
    expect(
      parseInboundSms('application/x-www-form-urlencoded', Buffer.from(new URLSearchParams(ok).toString())),
    ).toEqual(ok);
  });

  it.each([
    ['from', { ...ok, from: '5550001111' }],
    ['to', { ...ok, to: undefined }],
    ['text', { ...ok, text: 7 }],
    ['text', { ...ok, text: 'x'.repeat(1601) }],
    ['provider_message_id', { ...ok, provider_message_id: '' }],
  ])('names the bad field %s (400)', (field, body) => {
    expect(() => parseInboundSms('application/json', json(body))).toThrow(
      expect.objectContaining({
        status: 400,
        code: 'VALIDATION_ERROR',
        fieldErrors: [expect.objectContaining({ field })],
      }),
    );
  });

  it('answers malformed JSON with 400 and another media type with 415', () => {
    expect(() => parseInboundSms('application/json', Buffer.from('{'))).toThrow(
      expect.objectContaining({ status: 400, code: 'INVALID_JSON' }),
    );
    expect(() => parseInboundSms('application/json', Buffer.from('[1]'))).toThrow(
      expect.objectContaining({ status: 400 }),
    );
    expect(() => parseInboundSms('text/xml', Buffer.from('<a/>'))).toThrow(expect.objectContaining({ status: 415 }));
  });
});
