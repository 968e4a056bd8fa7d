import { BlockList, isIP } from 'node:net';

/** What kind of address an IP literal is. */
export type AddressClass = 'public' | 'loopback' | 'private' | 'link-local' | 'reserved' | 'mapped';

function blocks(entries: [string, number, 'ipv4' | 'ipv6'][]): BlockList {
  const list = new BlockList();
  for (const [net, prefix, family] of entries) list.addSubnet(net, prefix, family);
  return list;
}

const LOOPBACK = blocks([['127.0.0.0', 8, 'ipv4'], ['::1', 128, 'ipv6']]);
const PRIVATE = blocks([
  ['10.0.0.0', 8, 'ipv4'], ['172.16.0.0', 12, 'ipv4'], ['192.168.0.0', 16, 'ipv4'], ['100.64.0.0', 10, 'ipv4'], ['fc00::', 7, 'ipv6'],
]);
// 169.254.169.254 (cloud metadata) is inside 169.254/16
const LINK_LOCAL = blocks([['169.254.0.0', 16, 'ipv4'], ['fe80::', 10, 'ipv6']]);
const MAPPED = blocks([['::ffff:0:0', 96, 'ipv6'], ['::', 96, 'ipv6'], ['64:ff9b::', 96, 'ipv6'], ['2002::', 16, 'ipv6']]);
const RESERVED = blocks([
  ['0.0.0.0', 8, 'ipv4'], ['192.0.0.0', 24, 'ipv4'], ['198.18.0.0', 15, 'ipv4'], ['224.0.0.0', 4, 'ipv4'], ['240.0.0.0', 4, 'ipv4'],
  ['ff00::', 8, 'ipv6'], ['100::', 64, 'ipv6'],
]);

/** The IPv4 address inside an IPv4-mapped IPv6 address (`::ffff:10.0.0.1`), else the input. */
export function unmapAddress(address: string): string {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return m ? m[1] : address;
}

/** Classifies an IP literal (`[::1]` brackets and `::ffff:` mapping allowed); non-IPs are 'reserved'. */
export function classifyAddress(address: string): AddressClass {
  const ip = unmapAddress(address.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
  const family = isIP(ip);
  if (!family) return 'reserved';
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (type === 'ipv6' && MAPPED.check(ip, type)) return ip === '::1' ? 'loopback' : 'mapped';
  if (LOOPBACK.check(ip, type)) return 'loopback';
  if (LINK_LOCAL.check(ip, type)) return 'link-local';
  if (PRIVATE.check(ip, type)) return 'private';
  if (RESERVED.check(ip, type)) return 'reserved';
  return 'public';
}
