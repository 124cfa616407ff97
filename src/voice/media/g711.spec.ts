import { decodeG711, encodeG711, silenceByte } from './g711';

describe('G.711', () => {
  it('encodes the well-known µ-law and A-law vectors', () => {
    const pcm = Int16Array.from([0, 1000, -1000, 32767, -32768]);
    expect(Array.from(encodeG711('PCMU', pcm))).toEqual([0xff, 0xce, 0x4e, 0x80, 0x00]);
    expect(Array.from(encodeG711('PCMA', pcm))).toEqual([0xd5, 0xfa, 0x7a, 0xaa, 0x2a]);
  });

  it('decodes the well-known vectors', () => {
    expect(Array.from(decodeG711('PCMU', Uint8Array.from([0xff, 0x7f, 0x80, 0x00])))).toEqual([0, 0, 32124, -32124]);
    expect(Array.from(decodeG711('PCMA', Uint8Array.from([0xd5, 0x55, 0xaa, 0x2a])))).toEqual([8, -8, 32256, -32256]);
  });

  it.each(['PCMU', 'PCMA'] as const)('%s: every byte survives decode → encode', (codec) => {
    const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
    const back = encodeG711(codec, decodeG711(codec, bytes));
    for (let b = 0; b < 256; b++) {
      // µ-law has two zeros (0x7f and 0xff); both decode to 0 and encode back to 0xff
      if (codec === 'PCMU' && b === 0x7f) continue;
      expect(back[b]).toBe(b);
    }
  });

  it.each(['PCMU', 'PCMA'] as const)('%s: linear → law → linear stays within the step size', (codec) => {
    const pcm = Int16Array.from({ length: 2001 }, (_, i) => Math.round(-32000 + i * 32));
    const back = decodeG711(codec, encodeG711(codec, pcm));
    for (let i = 0; i < pcm.length; i++) {
      // a logarithmic quantiser's error grows with the magnitude: at most 1/16 of it plus a floor
      expect(Math.abs(back[i] - pcm[i])).toBeLessThanOrEqual(Math.abs(pcm[i]) / 16 + 16);
    }
  });

  it('names the silence byte of each codec', () => {
    expect(decodeG711('PCMU', Uint8Array.from([silenceByte('PCMU')]))[0]).toBe(0);
    expect(Math.abs(decodeG711('PCMA', Uint8Array.from([silenceByte('PCMA')]))[0])).toBeLessThanOrEqual(8);
  });
});
