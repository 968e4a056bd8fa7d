import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { errors, refusalOf } from '@tabula/http';

/**
 * Resolves a host and checks every address against the SSRF policy: public
 * addresses always, loopback and private ones only with
 * `SVC_ALLOW_LOCAL_SOURCES=true` (a hosted tenant must not reach the cluster's
 * own network), link-local/metadata never. Returns the address to connect to,
 * so a second resolution cannot swap in another one.
 */
export async function allowedAddress(host: string, allowLocal: boolean): Promise<string> {
  const bare = host.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (isIP(bare)) addresses = [bare];
  else {
    try {
      addresses = (await lookup(bare, { all: true, verbatim: true })).map((a) => a.address);
    } catch {
      throw errors.badRequest(`Host '${host.slice(0, 255)}' cannot be resolved`);
    }
  }
  for (const address of addresses) {
    // A name's resolved address is not echoed (refusalOf): no internal DNS map for tenants.
    const refusal = refusalOf(address, allowLocal, bare);
    if (refusal) throw errors.badRequest(`${refusal}; refused by the integrations network policy`);
  }
  return addresses[0];
}
