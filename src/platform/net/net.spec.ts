import { addressTest, addressTestOf, parseCidrList } from './cidr';
import { clientAddress } from './client-address';
import { forwardedClient } from './forwarded-for';

describe('clientAddress', () => {
  it('IPv4 as is, IPv4-mapped IPv6 as IPv4, other IPv6 by its /64', () => {
    expect(clientAddress('203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddress('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddress('::FFFF:cb00:7107')).toBe('203.0.113.7');
    expect(clientAddress('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientAddress('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(clientAddress('::1')).toBe('0:0:0:0::/64');
    expect(clientAddress(undefined)).toBe('unknown');
  });

  it('IPv6 ending in dotted IPv4 is read as the address it is (the old parser counted the tail as one group)', () => {
    expect(clientAddress('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
    expect(clientAddress('2001:db8:1:2::192.0.2.1')).toBe('2001:db8:1:2::/64');
    expect(clientAddress('2001:db8:1:2:3:4:192.0.2.1')).toBe('2001:db8:1:2::/64');
  });
});

describe('parseCidrList and addressTest', () => {
  it('blocks and bare addresses, both families; a mapped IPv4 matches its IPv4 block', () => {
    const parsed = parseCidrList(' 10.0.0.0/8, 192.0.2.7 ,2001:db8::/32');
    if ('invalid' in parsed) throw new Error(parsed.invalid);
    const trusted = addressTest(parsed.blocks);
    expect(trusted('10.1.2.3')).toBe(true);
    expect(trusted('::ffff:10.1.2.3')).toBe(true);
    expect(trusted('11.0.0.1')).toBe(false);
    expect(trusted('192.0.2.7')).toBe(true);
    expect(trusted('192.0.2.8')).toBe(false);
    expect(trusted('2001:db8:ffff::1')).toBe(true);
    expect(trusted('2001:db9::1')).toBe(false);
    expect(trusted(undefined)).toBe(false);
    expect(trusted('not an address')).toBe(false);
  });

  it('prefixes that are not whole bytes', () => {
    const trusted = addressTestOf(['172.16.0.0/12']);
    expect(trusted('172.31.255.255')).toBe(true);
    expect(trusted('172.32.0.0')).toBe(false);
    expect(trusted('172.15.255.255')).toBe(false);
  });

  it('names the first entry that is not a block', () => {
    expect(parseCidrList('10.0.0.0/8, 10.0.0.0/33')).toEqual({ invalid: '10.0.0.0/33' });
    expect(parseCidrList('nginx')).toEqual({ invalid: 'nginx' });
    expect(parseCidrList('10.0.0.0/8/1')).toEqual({ invalid: '10.0.0.0/8/1' });
    expect(parseCidrList('')).toEqual({ blocks: [] });
  });

  it('an empty list trusts no one', () => {
    expect(addressTestOf([])('127.0.0.1')).toBe(false);
  });
});

describe('forwardedClient', () => {
  const trusted = addressTestOf(['10.0.0.0/8']);

  it('believes X-Forwarded-For only from a trusted peer', () => {
    expect(forwardedClient('10.0.0.5', '203.0.113.1', trusted)).toBe('203.0.113.1');
    expect(forwardedClient('198.51.100.9', '203.0.113.1', trusted)).toBe('198.51.100.9');
    expect(forwardedClient('10.0.0.5', undefined, trusted)).toBe('10.0.0.5');
  });

  it('walks from the right through trusted hops; what a client wrote before the first untrusted hop is ignored', () => {
    expect(forwardedClient('10.0.0.5', 'spoofed, 203.0.113.1, 10.0.0.9', trusted)).toBe('203.0.113.1');
    expect(forwardedClient('10.0.0.5', ['198.51.100.1', '10.0.0.8'], trusted)).toBe('198.51.100.1');
    // every hop trusted: the left-most is as far as anyone can tell
    expect(forwardedClient('10.0.0.5', '10.0.0.7, 10.0.0.8', trusted)).toBe('10.0.0.7');
  });
});
