import { createHash } from 'node:crypto';

/**
 * The headers every page the server renders sends (contract §21): no MIME sniffing, and no page
 * of ours inside another site's frame (clickjacking). Each page adds its own content policy.
 */
export const PAGE_SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
} as const;

/** CSP source expressions for each inline `<tag>` block of `html`: only those blocks may run, nothing injected beside them. */
export function inlineHashes(html: string, tag: 'script' | 'style'): string[] {
  const blocks = html.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'g'));
  return [...blocks].map(([, body]) => `'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`);
}
