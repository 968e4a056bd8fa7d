import { checkHost, errors, refusalOf } from '@tabula/http';

/**
 * Resolves a host (libs/http `checkHost`) and checks every address against the
 * SSRF policy of outgoing requests: public addresses always, loopback and
 * private ones only with `SVC_ALLOW_LOCAL_SOURCES=true` (a hosted tenant must
 * not reach the cluster's own network), link-local/metadata never. Returns
 * the address to connect to, so a second resolution cannot swap in another one.
 */
export async function allowedAddress(host: string, allowLocal: boolean): Promise<string> {
  const bare = host.replace(/^\[|\]$/g, '');
  const { addresses, refusal } = await checkHost(bare, { allowLocal });
  if (refusal === 'unresolvable') throw errors.badRequest(`Host '${host.slice(0, 255)}' cannot be resolved`);
  for (const address of addresses) {
    // A name's resolved address is not echoed (refusalOf): no internal DNS map for tenants.
    const refused = refusalOf(address, allowLocal, bare);
    if (refused) throw errors.badRequest(`${refused}; refused by the integrations network policy`);
  }
  return addresses[0];
}
