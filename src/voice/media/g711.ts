/**
 * G.711 (ITU-T G.711) µ-law and A-law: 8 kHz, one byte per sample, the codecs every SIP trunk
 * speaks. Tables are built once so a 20 ms frame costs 160 lookups each way.
 */
import type { AudioCodec } from '../call-media.port';

const MULAW_BIAS = 0x84;
const MULAW_CLIP = 32635;

function mulawEncodeSample(sample: number): number {
  let s = sample;
  const sign = s < 0 ? 0x80 : 0;
  if (s < 0) s = -s;
  if (s > MULAW_CLIP) s = MULAW_CLIP;
  s += MULAW_BIAS;
  let exponent = 7;
  for (let mask = 0x4000; (s & mask) === 0 && exponent > 0; mask >>= 1) exponent--;
  const mantissa = (s >> (exponent + 3)) & 0x0f;
  return ~(sign | (exponent << 4) | mantissa) & 0xff;
}

function mulawDecodeByte(byte: number): number {
  const u = ~byte & 0xff;
  const sign = u & 0x80;
  const exponent = (u >> 4) & 0x07;
  const mantissa = u & 0x0f;
  const magnitude = (((mantissa << 3) + MULAW_BIAS) << exponent) - MULAW_BIAS;
  return sign ? -magnitude : magnitude;
}

function alawEncodeSample(sample: number): number {
  let s = sample;
  let sign = 0x80;
  if (s < 0) {
    sign = 0;
    s = -s - 1;
  }
  if (s > 32767) s = 32767;
  let out: number;
  if (s < 256) {
    out = s >> 4;
  } else {
    let exponent = 7;
    for (let mask = 0x4000; (s & mask) === 0 && exponent > 1; mask >>= 1) exponent--;
    out = (exponent << 4) | ((s >> (exponent + 3)) & 0x0f);
  }
  return (out | sign) ^ 0x55;
}

function alawDecodeByte(byte: number): number {
  const a = byte ^ 0x55;
  const exponent = (a >> 4) & 0x07;
  const mantissa = a & 0x0f;
  let magnitude = exponent === 0 ? (mantissa << 4) + 8 : ((mantissa << 4) + 0x108) << (exponent - 1);
  if (magnitude > 32767) magnitude = 32767;
  return a & 0x80 ? magnitude : -magnitude;
}

function tables(decodeByte: (b: number) => number, encodeSample: (s: number) => number) {
  const decode = new Int16Array(256);
  for (let b = 0; b < 256; b++) decode[b] = decodeByte(b);
  const encode = new Uint8Array(65536);
  for (let s = -32768; s < 32768; s++) encode[s & 0xffff] = encodeSample(s);
  return { decode, encode };
}

const MULAW = tables(mulawDecodeByte, mulawEncodeSample);
const ALAW = tables(alawDecodeByte, alawEncodeSample);

const table = (codec: AudioCodec) => (codec === 'PCMA' ? ALAW : MULAW);

/** 16-bit linear PCM → G.711 bytes (one per sample). */
export function encodeG711(codec: AudioCodec, pcm: Int16Array): Uint8Array {
  const { encode } = table(codec);
  const out = new Uint8Array(pcm.length);
  for (let i = 0; i < pcm.length; i++) out[i] = encode[pcm[i] & 0xffff];
  return out;
}

/** G.711 bytes → 16-bit linear PCM. */
export function decodeG711(codec: AudioCodec, bytes: Uint8Array): Int16Array {
  const { decode } = table(codec);
  const out = new Int16Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) out[i] = decode[bytes[i]];
  return out;
}

/** The byte each codec sends for digital silence (0 linear). */
export const silenceByte = (codec: AudioCodec): number => (codec === 'PCMA' ? 0xd5 : 0xff);
