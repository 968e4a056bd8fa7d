import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { classifyAddress, type AddressClass } from './address-class';

/** Which outbound hosts a caller may connect to. */
export interface HostPolicy {
  /** Also allow loopback and private addresses (development, tests, self-hosted sources on the same network). */
  allowLocal: boolean;
}

/** The outcome of checking a host: its addresses, and why it is refused (undefined when allowed). */
export interface HostCheck {
  addresses: string[];
  refusal?: AddressClass | 'unresolvable';
}

function refused(kind: AddressClass, policy: HostPolicy): boolean {
  if (kind === 'public') return false;
  return !(policy.allowLocal && (kind === 'loopback' || kind === 'private'));
}

/**
 * Resolves a host name (or takes an IP literal) and checks every address it
 * resolves to against the policy: public addresses are allowed; loopback and
 * private ones only with `allowLocal`; link-local (cloud metadata), mapped and
 * reserved ones never. A name with any refused address is refused (DNS
 * answers can rotate). Connect to one of `addresses`, not to the name again,
 * to avoid a second, different DNS answer.
 */
export async function checkHost(host: string, policy: HostPolicy): Promise<HostCheck> {
  const bare = host.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (isIP(bare)) addresses = [bare];
  else {
    try {
      addresses = (await lookup(bare, { all: true, verbatim: true })).map((a) => a.address);
    } catch {
      return { addresses: [], refusal: 'unresolvable' };
    }
  }
  if (addresses.length === 0) return { addresses, refusal: 'unresolvable' };
  for (const address of addresses) {
    const kind = classifyAddress(address);
    if (refused(kind, policy)) return { addresses, refusal: kind };
  }
  return { addresses };
}
