import { parseSipMessage, type SipRequest } from './sip-message';
import { calledNumber, callerNumber, e164Of, malformation, userOf } from './sip-requests';

const invite = (headers: string, uri = 'sip:+15550100001@127.0.0.1') =>
  parseSipMessage(`INVITE ${uri} SIP/2.0\r\n${headers}\r\n\r\n`) as SipRequest;
const FULL =
  'Via: SIP/2.0/UDP 1.2.3.4;branch=z9hG4bK1\r\nFrom: <sip:+15557654321@x>;tag=a\r\nTo: <sip:+15550100001@y>\r\nCall-ID: c\r\nCSeq: 1 INVITE';

describe('reading inbound requests', () => {
  it('a complete request passes; each missing header or a CSeq for another method is named', () => {
    expect(malformation(invite(FULL))).toBeNull();
    expect(malformation(invite(FULL.replace(/Call-ID: c\r\n/, '')))).toBe('Missing call-id header');
    expect(malformation(invite(FULL.replace('1 INVITE', '1 BYE')))).toBe('Bad CSeq');
    expect(malformation(invite(FULL.replace('1 INVITE', 'x INVITE')))).toBe('Bad CSeq');
    expect(malformation(invite(FULL, 'http://x'))).toBe('Bad Request-URI');
  });

  it('numbers: with or without +, tel: URIs, visual separators; names are not numbers', () => {
    expect(userOf('sip:+15550100001@h;user=phone')).toBe('+15550100001');
    expect(userOf('tel:+1-555-010-0001;phone-context=x')).toBe('+1-555-010-0001');
    expect(userOf('sip:h')).toBeNull();
    expect(e164Of('15550100001')).toBe('+15550100001');
    expect(e164Of('+1-555-010-0001')).toBe('+15550100001');
    expect(e164Of('alice')).toBeNull();
    expect(e164Of('+0123')).toBeNull();
    expect(calledNumber(invite(FULL))).toBe('+15550100001');
    expect(calledNumber(invite(FULL.replace('+15550100001@y', 'service@y'), 'sip:15550100009@x'))).toBe('+15550100009');
    expect(callerNumber(invite(FULL))).toBe('+15557654321');
    expect(callerNumber(invite(FULL.replace('+15557654321', 'anonymous')))).toBe('anonymous');
  });
});
