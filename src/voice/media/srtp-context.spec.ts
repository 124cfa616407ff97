import { buildRtp } from './rtp-packet';
import { SrtpContext, aesCmKeystream, deriveSessionKey, packetIv } from './srtp-context';

const hex = (s: string) => Buffer.from(s.replace(/\s+/g, ''), 'hex');
const upper = (b: Buffer) => b.toString('hex').toUpperCase();

const MASTER_KEY = hex('E1F97A0D3E018BE0D64FA32C06DE4139');
const MASTER_SALT = hex('0EC675AD498AFEEBB6960B3AABE6');
const MASTER = Buffer.concat([MASTER_KEY, MASTER_SALT]);

const rtp = (sequence: number, ssrc = 0x11223344, payload = new Uint8Array(160).fill(0x55)) =>
  buildRtp({ payloadType: 0, sequence, timestamp: sequence * 160, ssrc, marker: false, payload });

describe('SRTP against RFC 3711 Appendix B and libsrtp', () => {
  it('B.2: the AES-CM keystream of the session key at the shifted salt', () => {
    const iv = packetIv(hex('F0F1F2F3F4F5F6F7F8F9FAFBFCFD'), 0, 0);
    expect(upper(iv)).toBe('F0F1F2F3F4F5F6F7F8F9FAFBFCFD0000');
    const keystream = aesCmKeystream(hex('2B7E151628AED2A6ABF7158809CF4F3C'), iv, 0xff02 * 16);
    expect(upper(keystream.subarray(0, 48))).toBe(
      'E03EAD0935C95E80E166B16DD92B4EB4' + 'D23513162B02D0F72A43A2FE4A5F97AB' + '41E95B3BB0A2E8DD477901E4FCA894C0',
    );
    expect(upper(keystream.subarray(0xfeff * 16))).toBe(
      'EC8CDF7398607CB0F2D21675EA9EA1E4' + '362B7C3C6773516318A077D7FC5073AE' + '6A2CC3787889374FBEB4C81B17BA6C44',
    );
  });

  it('B.3: the session encryption key, salt and authentication key of a master key', () => {
    expect(upper(deriveSessionKey(MASTER_KEY, MASTER_SALT, 0, 16))).toBe('C61E7A93744F39EE10734AFE3FF7A087');
    expect(upper(deriveSessionKey(MASTER_KEY, MASTER_SALT, 2, 14))).toBe('30CBBC08863D8C85D49DB34A9AE1');
    expect(upper(deriveSessionKey(MASTER_KEY, MASTER_SALT, 1, 94))).toBe(
      'CEBE321F6FF7716B6FD4AB49AF256A15' +
        '6D38BAA48F0A0ACF3C34E2359E6CDBCE' +
        'E049646C43D9327AD175578EF7227098' +
        '6371C10C9A369AC2F94A8C5FBCDDDC25' +
        '6D6E919A48B610EF17C2041E47403576' +
        '6B68642C59BBFC2F34DB60DBDFB2',
    );
  });

  it("libsrtp's reference packet (AES_CM_128_HMAC_SHA1_80): protected byte for byte, and back", () => {
    const plain = hex('800f1234decafbadcafebabe' + 'ab'.repeat(16));
    const cipher = hex('800f1234decafbadcafebabe4e55dc4ce79978d88ca4d215949d2402b78d6acc99ea179b8dbb');
    expect(new SrtpContext('AES_CM_128_HMAC_SHA1_80', MASTER).protect(plain)).toEqual(cipher);
    expect(new SrtpContext('AES_CM_128_HMAC_SHA1_80', MASTER.toString('base64')).unprotect(cipher)).toEqual(plain);
  });

  it('the 32-bit tag suite: the same ciphertext with the tag cut to 4 bytes', () => {
    const plain = hex('800f1234decafbadcafebabe' + 'ab'.repeat(16));
    const cipher = new SrtpContext('AES_CM_128_HMAC_SHA1_32', MASTER).protect(plain)!;
    expect(cipher.toString('hex')).toBe('800f1234decafbadcafebabe4e55dc4ce79978d88ca4d215949d2402b78d6acc');
    expect(new SrtpContext('AES_CM_128_HMAC_SHA1_32', MASTER).unprotect(cipher)).toEqual(plain);
  });
});

describe('SrtpContext', () => {
  const pair = () => ({
    sender: new SrtpContext('AES_CM_128_HMAC_SHA1_80', MASTER),
    receiver: new SrtpContext('AES_CM_128_HMAC_SHA1_80', MASTER),
  });

  it('refuses a packet with one bit changed, the wrong key, a replay, and one older than the window', () => {
    const { sender, receiver } = pair();
    const packets = Array.from({ length: 100 }, (_, i) => sender.protect(rtp(i))!);
    const tampered = Buffer.from(packets[0]);
    tampered[20] ^= 1;
    expect(receiver.unprotect(tampered)).toBe('unauthenticated');
    const stranger = new SrtpContext('AES_CM_128_HMAC_SHA1_80', Buffer.alloc(30, 7));
    expect(stranger.unprotect(packets[0])).toBe('unauthenticated');
    expect(receiver.unprotect(packets[0])).toEqual(rtp(0));
    expect(receiver.unprotect(packets[0])).toBe('replayed');
    expect(receiver.unprotect(packets[99])).toEqual(rtp(99));
    // 35 behind: inside the window, taken once
    expect(receiver.unprotect(packets[64])).toEqual(rtp(64));
    expect(receiver.unprotect(packets[64])).toBe('replayed');
    // 99 behind: older than the window
    expect(receiver.unprotect(packets[1])).toBe('replayed');
  });

  it('garbage never throws: short, not version 2, a header extension longer than the packet', () => {
    const { receiver, sender } = pair();
    for (const junk of [
      Buffer.alloc(0),
      Buffer.alloc(11, 0x80),
      hex('00'.repeat(40)),
      hex('90' + '00'.repeat(13) + 'ffff'),
    ]) {
      expect(receiver.unprotect(junk)).toBe('malformed');
      expect(sender.protect(junk)).toBeNull();
    }
  });

  it('follows the sequence number across its wrap (the rollover counter), also with reordering around it', () => {
    const { sender, receiver } = pair();
    const seqs = [65530, 65531, 65532, 65533, 65534, 65535, 0, 1, 2, 3];
    const protectedPackets = seqs.map((s) => sender.protect(rtp(s))!);
    // 65535 and 0 swapped, 1 before 65534
    const order = [0, 1, 2, 3, 7, 4, 6, 5, 8, 9];
    for (const i of order) expect(receiver.unprotect(protectedPackets[i])).toEqual(rtp(seqs[i]));
    // after the wrap the ROC is 1: a packet protected at ROC 0 with a sequence number ahead is refused
    const before = new SrtpContext('AES_CM_128_HMAC_SHA1_80', MASTER).protect(rtp(10))!;
    expect(receiver.unprotect(before)).toBe('unauthenticated');
  });

  it('keeps sources apart: each SSRC has its own counters', () => {
    const { sender, receiver } = pair();
    const a = sender.protect(rtp(5, 1))!;
    const b = sender.protect(rtp(5, 2))!;
    expect(a.subarray(12)).not.toEqual(b.subarray(12));
    expect(receiver.unprotect(a)).toEqual(rtp(5, 1));
    expect(receiver.unprotect(b)).toEqual(rtp(5, 2));
  });

  it('refuses a key of the wrong length', () => {
    expect(() => new SrtpContext('AES_CM_128_HMAC_SHA1_80', Buffer.alloc(16))).toThrow(/30 bytes/);
  });
});
