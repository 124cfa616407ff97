import { addressKind, refusedAddress } from './address-rules';

/** Addresses as dns.lookup hands them out (the sender judges every resolved address). */
describe('outbound address rules', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.254', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.255', 'cgnat'],
    ['169.254.1.1', 'link_local'],
    ['169.254.169.254', 'metadata'],
    ['169.254.170.2', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['fe80::1', 'link_local'],
    ['fe80::1%eth0', 'link_local'],
    ['febf:ffff::1', 'link_local'],
    ['fc00::1', 'unique_local'],
    ['fd12:3456::1', 'unique_local'],
    ['fec0::1', 'private'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['ff02::1', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.10', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:a9fe:a9fe', 'metadata'],
    ['::127.0.0.1', 'loopback'],
    ['::a00:1', 'private'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'metadata'],
    ['64:ff9b:1::1', 'reserved'],
    ['2002:7f00:1::1', 'loopback'],
    ['2002:c0a8:101::1', 'private'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['100::1', 'reserved'],
  ])('%s is %s', (ip, kind) => {
    expect(addressKind(ip)).toBe(kind);
    expect(refusedAddress(ip, { allowLoopback: false })).toBe(kind);
  });

  it.each([
    '93.184.215.14',
    '8.8.8.8',
    '1.1.1.1',
    '172.15.255.255',
    '172.32.0.1',
    '100.63.255.255',
    '100.128.0.1',
    '169.253.0.1',
    '192.169.0.1',
    '11.0.0.1',
    '2606:4700:4700::1111',
    '2a00:1450:4001:81c::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ])('%s is public', (ip) => {
    expect(addressKind(ip)).toBe('public');
    expect(refusedAddress(ip, { allowLoopback: false })).toBeNull();
  });

  it('allows loopback, and only loopback, when asked to (WEBHOOK_ALLOW_HTTP=1)', () => {
    for (const ip of ['127.0.0.1', '::1', '::ffff:127.0.0.1'])
      expect(refusedAddress(ip, { allowLoopback: true })).toBeNull();
    for (const ip of ['10.0.0.1', '192.168.0.1', '169.254.169.254', 'fd00::1', '0.0.0.0', '::'])
      expect(refusedAddress(ip, { allowLoopback: true })).not.toBeNull();
  });

  it('does not take names or malformed text for addresses', () => {
    for (const text of ['example.com', '1.2.3', '1.2.3.4.5', '256.1.1.1', '1:2:3:4:5:6:7:8:9', '::1::', 'g::1', '']) {
      expect(addressKind(text)).toBeNull();
      expect(refusedAddress(text, { allowLoopback: true })).toBe('not_an_address');
    }
  });
});
