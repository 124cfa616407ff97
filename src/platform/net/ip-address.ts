/**
 * IP addresses as bytes, so that every written form of one address (compressed, mapped, with a
 * dotted tail) is judged as the same address. Input is what the WHATWG URL parser or dns.lookup
 * hands out: canonical dotted IPv4, and IPv6 with or without brackets.
 */

/** Four bytes of a dotted-decimal IPv4 address, or null. */
export function parseIPv4(text: string): number[] | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  const bytes: number[] = [];
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return null;
    const value = Number(part);
    if (value > 255) return null;
    bytes.push(value);
  }
  return bytes;
}

/** Sixteen bytes of an IPv6 address (brackets and a zone allowed), or null. */
export function parseIPv6(text: string): number[] | null {
  let s = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  if (!s.includes(':')) return null;
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const groups = (half: string): number[] | null => {
    if (half === '') return [];
    const out: number[] = [];
    const pieces = half.split(':');
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i];
      if (i === pieces.length - 1 && piece.includes('.')) {
        const v4 = parseIPv4(piece);
        if (!v4) return null;
        out.push((v4[0] << 8) | v4[1], (v4[2] << 8) | v4[3]);
      } else if (/^[0-9a-fA-F]{1,4}$/.test(piece)) {
        out.push(parseInt(piece, 16));
      } else {
        return null;
      }
    }
    return out;
  };
  const head = groups(halves[0]);
  const tail = halves.length === 2 ? groups(halves[1]) : [];
  if (!head || !tail) return null;
  let all: number[];
  if (halves.length === 2) {
    const missing = 8 - head.length - tail.length;
    if (missing < 1) return null;
    all = [...head, ...new Array<number>(missing).fill(0), ...tail];
  } else {
    if (head.length !== 8) return null;
    all = head;
  }
  return all.flatMap((group) => [group >> 8, group & 0xff]);
}
