import { authorization, digestResponse, parseChallenge } from './digest';

const MUFASA = { username: 'Mufasa', password: 'Circle Of Life' };

describe('SIP digest authentication', () => {
  it("RFC 2617 §3.5's worked example: MD5, qop=auth", () => {
    const challenge = parseChallenge(
      'Digest realm="testrealm@host.com", qop="auth,auth-int", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", opaque="5ccc069c403ebaf9f0171e9517f40e41"',
    )!;
    expect(challenge).toEqual({
      realm: 'testrealm@host.com',
      nonce: 'dcd98b7102dd2f0e8b11d0f600bfb0c093',
      opaque: '5ccc069c403ebaf9f0171e9517f40e41',
      algorithm: 'MD5',
      qop: 'auth',
      stale: false,
    });
    expect(digestResponse(challenge, MUFASA, 'GET', '/dir/index.html', '00000001', '0a4f113b')).toBe(
      '6629fae49393a05397450978507c4ef1',
    );
    const header = authorization(challenge, MUFASA, 'GET', '/dir/index.html', 1, '0a4f113b');
    expect(header).toBe(
      'Digest username="Mufasa", realm="testrealm@host.com", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", ' +
        'uri="/dir/index.html", response="6629fae49393a05397450978507c4ef1", algorithm=MD5, ' +
        'opaque="5ccc069c403ebaf9f0171e9517f40e41", qop=auth, nc=00000001, cnonce="0a4f113b"',
    );
  });

  it("RFC 7616 §3.9.1's worked example: SHA-256", () => {
    const challenge = parseChallenge(
      'Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm=SHA-256, nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"',
    )!;
    expect(challenge.algorithm).toBe('SHA-256');
    expect(
      digestResponse(
        challenge,
        // RFC 7616 spells the password with a lower-case "of"
        { username: 'Mufasa', password: 'Circle of Life' },
        'GET',
        '/dir/index.html',
        '00000001',
        'f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ',
      ),
    ).toBe('753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1');
  });

  it('no qop: the RFC 2069 response, and no nc/cnonce in the header', () => {
    const challenge = parseChallenge('Digest realm="asterisk",nonce="1a2b3c"')!;
    expect(challenge).toMatchObject({ qop: null, algorithm: 'MD5', opaque: null });
    const header = authorization(challenge, { username: 'u', password: 'p' }, 'INVITE', 'sip:+1555@trunk');
    expect(header).not.toContain('qop=');
    expect(header).not.toContain('cnonce');
    expect(header).toContain('uri="sip:+1555@trunk"');
  });

  it('refuses what it cannot answer: another scheme, no nonce, an unknown algorithm, auth-int only, junk', () => {
    for (const value of [
      undefined,
      '',
      'Basic realm="x"',
      'Digest realm="x"',
      'Digest realm="x", nonce="n", algorithm=SHA-512-256',
      'Digest realm="x", nonce="n", qop="auth-int"',
      `Digest realm="x", nonce="${'n'.repeat(5000)}"`,
      'Digest ,,,,==""',
    ])
      expect(parseChallenge(value)).toBeNull();
    expect(parseChallenge('Digest realm="x", nonce="n", stale=TRUE')?.stale).toBe(true);
  });
});
