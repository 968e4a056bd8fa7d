import { CidrList, checkHost, classifyAddress, clientAddressOf } from '../src';

describe('net: address classes, CIDR lists, forwarded clients, host policy', () => {
  it('classifies addresses, IPv4-mapped ones by their IPv4 address', () => {
    expect(classifyAddress('8.8.8.8')).toBe('public');
    expect(classifyAddress('127.0.0.1')).toBe('loopback');
    expect(classifyAddress('::ffff:127.0.0.1')).toBe('loopback');
    expect(classifyAddress('[::1]')).toBe('loopback');
    expect(classifyAddress('10.2.3.4')).toBe('private');
    expect(classifyAddress('169.254.169.254')).toBe('link-local');
    expect(classifyAddress('0.0.0.0')).toBe('reserved');
    expect(classifyAddress('not-an-ip')).toBe('reserved');
  });

  it('parses CIDR lists and refuses malformed entries', () => {
    const list = new CidrList(['10.0.0.0/8', '192.168.1.5', 'fd00::/8']);
    expect(list.has('10.9.9.9')).toBe(true);
    expect(list.has('::ffff:10.9.9.9')).toBe(true);
    expect(list.has('192.168.1.5')).toBe(true);
    expect(list.has('192.168.1.6')).toBe(false);
    expect(list.has('fd12::1')).toBe(true);
    expect(() => new CidrList(['10.0.0.0/33'])).toThrow();
    expect(() => new CidrList(['nope/8'])).toThrow();
  });

  it('believes X-Forwarded-For only from trusted proxies, reading from the right', () => {
    const trusted = new CidrList(['10.0.0.0/8']);
    expect(clientAddressOf('203.0.113.1', '1.2.3.4', trusted)).toBe('203.0.113.1');
    expect(clientAddressOf('10.0.0.2', '1.2.3.4', trusted)).toBe('1.2.3.4');
    expect(clientAddressOf('10.0.0.2', '6.6.6.6, 1.2.3.4, 10.0.0.9', trusted)).toBe('1.2.3.4');
    expect(clientAddressOf('10.0.0.2', 'garbage', trusted)).toBe('10.0.0.2');
    expect(clientAddressOf('::ffff:10.0.0.2', undefined, trusted)).toBe('10.0.0.2');
  });

  it('applies the host policy to literals (names resolve through DNS)', async () => {
    expect(await checkHost('127.0.0.1', { allowLocal: false })).toMatchObject({ refusal: 'loopback' });
    expect(await checkHost('127.0.0.1', { allowLocal: true })).toEqual({ addresses: ['127.0.0.1'] });
    expect(await checkHost('169.254.169.254', { allowLocal: true })).toMatchObject({ refusal: 'link-local' });
    expect(await checkHost('localhost', { allowLocal: false })).toMatchObject({ refusal: 'loopback' });
    expect(await checkHost('8.8.8.8', { allowLocal: false })).toEqual({ addresses: ['8.8.8.8'] });
  });
});
