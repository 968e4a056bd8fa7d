import { BlockList, isIP } from 'node:net';

/** Why an address is not a public internet address. */
export type AddressClass = 'public' | 'loopback' | 'private' | 'link-local' | 'reserved' | 'mapped';

function list(entries: [string, number, 'ipv4' | 'ipv6'][]): BlockList {
  const blocks = new BlockList();
  for (const [net, prefix, family] of entries) blocks.addSubnet(net, prefix, family);
  return blocks;
}

const LOOPBACK = list([['127.0.0.0', 8, 'ipv4'], ['::1', 128, 'ipv6']]);
const PRIVATE = list([
  ['10.0.0.0', 8, 'ipv4'], ['172.16.0.0', 12, 'ipv4'], ['192.168.0.0', 16, 'ipv4'], ['100.64.0.0', 10, 'ipv4'], ['fc00::', 7, 'ipv6'],
]);
// 169.254.169.254 (cloud metadata) is inside 169.254/16
const LINK_LOCAL = list([['169.254.0.0', 16, 'ipv4'], ['fe80::', 10, 'ipv6']]);
const MAPPED = list([['::ffff:0:0', 96, 'ipv6'], ['::', 96, 'ipv6'], ['64:ff9b::', 96, 'ipv6'], ['2002::', 16, 'ipv6']]);
const RESERVED = list([
  ['0.0.0.0', 8, 'ipv4'], ['192.0.0.0', 24, 'ipv4'], ['198.18.0.0', 15, 'ipv4'], ['224.0.0.0', 4, 'ipv4'], ['240.0.0.0', 4, 'ipv4'],
  ['ff00::', 8, 'ipv6'], ['100::', 64, 'ipv6'],
]);

/** Classifies an IP literal (`[::1]` brackets allowed); non-IPs are 'reserved'. */
export function classifyAddress(address: string): AddressClass {
  const ip = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
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

/** Null when an outgoing request (hook, upload by URL) may connect to the address, else the reason it may not. */
export function refusalOf(address: string, allowLocal: boolean): string | null {
  const kind = classifyAddress(address);
  if (kind === 'public') return null;
  if (allowLocal && (kind === 'loopback' || kind === 'private')) return null;
  return `Target address ${address} is not allowed (${kind})`;
}

/** Null for an http(s) URL, else why the URL is refused. */
export function urlRefusal(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `Invalid URL '${raw.slice(0, 200)}'`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `URL scheme '${url.protocol}' is not allowed (http or https only)`;
  if (!url.hostname) return 'URL has no host';
  return null;
}
