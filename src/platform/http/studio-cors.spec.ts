import { corsVerdict, studioOrigins } from './studio-cors';

const ALLOWED = new Set(['https://studio.example.com']);

describe('corsVerdict', () => {
  it('answers a listed origin’s preflight with the auth headers allowed', () => {
    const verdict = corsVerdict('OPTIONS', 'https://studio.example.com', 'POST', ALLOWED);
    expect(verdict.kind).toBe('preflight');
    if (verdict.kind !== 'preflight') return;
    expect(verdict.headers['access-control-allow-origin']).toBe('https://studio.example.com');
    expect(verdict.headers['access-control-allow-headers']).toContain('x-api-key');
    expect(verdict.headers['access-control-allow-headers']).toContain('x-operator-token');
  });

  it('refuses another origin’s preflight and adds nothing to its requests', () => {
    expect(corsVerdict('OPTIONS', 'https://evil.example.net', 'GET', ALLOWED)).toEqual({ kind: 'refused' });
    expect(corsVerdict('GET', 'https://evil.example.net', undefined, ALLOWED)).toEqual({ kind: 'none' });
    expect(corsVerdict('GET', undefined, undefined, ALLOWED)).toEqual({ kind: 'none' });
  });

  it('marks a listed origin’s request', () => {
    expect(corsVerdict('GET', 'https://studio.example.com', undefined, ALLOWED)).toMatchObject({
      kind: 'allow',
      headers: { 'access-control-allow-origin': 'https://studio.example.com', vary: 'Origin' },
    });
  });
});

describe('studioOrigins', () => {
  it('defaults to studio.<domain> under PUBLIC_DOMAIN, and to none without it', () => {
    expect(studioOrigins(undefined, 'example.com')).toEqual([
      'https://studio.example.com',
      'http://studio.example.com',
    ]);
    expect(studioOrigins(undefined, null)).toEqual([]);
  });

  it('takes a list of origins and refuses what is not one', () => {
    expect(studioOrigins('https://a.example.com, http://localhost:5173/', null)).toEqual([
      'https://a.example.com',
      'http://localhost:5173',
    ]);
    expect(studioOrigins('https://a.example.com/path', null)).toEqual({ invalid: 'https://a.example.com/path' });
    expect(studioOrigins('*', null)).toEqual({ invalid: '*' });
    expect(studioOrigins('ftp://a.example.com', null)).toEqual({ invalid: 'ftp://a.example.com' });
  });
});
