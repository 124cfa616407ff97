/** 16-bit mono PCM WAV files: what espeak-ng writes and pocketsphinx and the hosted APIs read. */
export function encodeWav(pcm: Int16Array, sampleRate: number): Buffer {
  const data = Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/**
 * The samples and rate of a 16-bit mono PCM WAV, or null when it is not one. espeak-ng writing to
 * a pipe leaves the sizes at 0xffffffff, so a data chunk runs to the end of what was read.
 */
export function decodeWav(bytes: Buffer): { pcm: Int16Array; sampleRate: number } | null {
  if (bytes.length < 12 || bytes.toString('ascii', 0, 4) !== 'RIFF' || bytes.toString('ascii', 8, 12) !== 'WAVE')
    return null;
  let offset = 12;
  let sampleRate = 0;
  let format = 0;
  while (offset + 8 <= bytes.length) {
    const id = bytes.toString('ascii', offset, offset + 4);
    const size = bytes.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === 'fmt ' && body + 16 <= bytes.length) {
      format =
        bytes.readUInt16LE(body) === 1 && bytes.readUInt16LE(body + 2) === 1 && bytes.readUInt16LE(body + 14) === 16
          ? 1
          : 0;
      sampleRate = bytes.readUInt32LE(body + 4);
    } else if (id === 'data') {
      if (format !== 1 || sampleRate <= 0) return null;
      const end = Math.min(bytes.length, body + size);
      const samples = Math.floor((end - body) / 2);
      const pcm = new Int16Array(samples);
      for (let i = 0; i < samples; i++) pcm[i] = bytes.readInt16LE(body + i * 2);
      return { pcm, sampleRate };
    }
    offset = body + size + (size & 1);
  }
  return null;
}
