import { BlockList, isIP } from 'node:net';
import { unmapAddress } from './address-class';

/** A parsed list of CIDRs (`10.0.0.0/8`, `fd00::/8`, or single addresses). */
export class CidrList {
  private readonly list = new BlockList();
  readonly size: number;

  constructor(cidrs: string[]) {
    for (const cidr of cidrs) {
      const [net, bits] = cidr.split('/');
      const family = isIP(net);
      if (!family) throw new Error(`'${cidr}' is not an IP address or CIDR`);
      const max = family === 4 ? 32 : 128;
      const prefix = bits === undefined ? max : Number(bits);
      if (!Number.isInteger(prefix) || prefix < 0 || prefix > max || (bits !== undefined && !/^\d+$/.test(bits))) throw new Error(`'${cidr}' has an invalid prefix length`);
      this.list.addSubnet(net, prefix, family === 4 ? 'ipv4' : 'ipv6');
    }
    this.size = cidrs.length;
  }

  /** True when the address is inside one of the CIDRs. */
  has(address: string | undefined): boolean {
    if (!address || this.size === 0) return false;
    const ip = unmapAddress(address);
    const family = isIP(ip);
    return family !== 0 && this.list.check(ip, family === 4 ? 'ipv4' : 'ipv6');
  }
}

/**
 * The client's address: the peer's, unless the peer is a trusted proxy; then
 * `X-Forwarded-For` is read from the right, skipping trusted proxies, and the
 * first address that is not one is the client (left entries are whatever the
 * client wrote, so they are never believed).
 */
export function clientAddressOf(peer: string | undefined, forwardedFor: string | undefined, trusted: CidrList): string {
  const remote = unmapAddress(peer ?? '');
  if (!trusted.has(remote) || !forwardedFor) return remote;
  const hops = forwardedFor.split(',').map((h) => unmapAddress(h.trim())).filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i -= 1) {
    if (!isIP(hops[i])) return remote;
    if (!trusted.has(hops[i])) return hops[i];
  }
  return hops[0] ?? remote;
}
