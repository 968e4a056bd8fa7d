import { isIP } from 'node:net';
import { classifyAddress, type AddressClass } from './address-class';

/**
 * Classifies the target of an outgoing request (hooks, upload by URL). Unlike
 * {@link classifyAddress}, an IPv4-mapped IPv6 address stays 'mapped' (always
 * refused), so `[::ffff:127.0.0.1]` cannot pass as a permitted loopback target.
 */
export function classifyTarget(address: string): AddressClass {
  const ip = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (isIP(ip) === 6 && /^::ffff:/i.test(ip)) return 'mapped';
  return classifyAddress(ip);
}

/**
 * Null when an outgoing request (hook, upload by URL) may connect to the
 * address, else the reason it may not. When the target was a host name
 * (`host`), the reason names the host and the address class, never the
 * resolved address: echoing it would let a tenant map the internal network
 * through DNS (`db.internal` → `10.1.2.3`).
 */
export function refusalOf(address: string, allowLocal: boolean, host?: string): string | null {
  const kind = classifyTarget(address);
  if (kind === 'public') return null;
  if (allowLocal && (kind === 'loopback' || kind === 'private')) return null;
  const name = host?.replace(/^\[|\]$/g, '');
  if (name && isIP(name) === 0) return `Host '${name.slice(0, 255)}' resolves to a ${kind} address, which is not allowed`;
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
