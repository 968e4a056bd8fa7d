import { lookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, buildConnector } from 'undici';
import { refusalOf } from './ssrf-guard';

/** Thrown (through the connector) when a target resolves to a refused address. */
export class BlockedAddressError extends Error {
  readonly code = 'ERR_TARGET_BLOCKED';
}

/**
 * A dns.lookup that resolves every address of the host and refuses the
 * connection when any of them is refused: checking at connect time (not only
 * when the hook is saved) closes the DNS-rebinding window.
 */
export function guardedLookup(allowLocal: boolean): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      const refused = addresses.map((a) => refusalOf(a.address, allowLocal, hostname)).find((r) => r !== null);
      if (refused) return callback(new BlockedAddressError(refused), '', 0);
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const first = addresses[0];
      if (!first) return callback(new BlockedAddressError(`${hostname} did not resolve`), '', 0);
      return callback(null, first.address, first.family);
    });
  };
}

/**
 * An undici connector that only reaches allowed addresses: IP literals are
 * checked before connecting (net skips lookup for them), names through
 * {@link guardedLookup}.
 */
export function createSafeConnector(allowLocal: boolean): buildConnector.connector {
  const base = buildConnector({ lookup: guardedLookup(allowLocal) } as buildConnector.BuildOptions);
  return (options, callback) => {
    const host = options.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host)) {
      const refused = refusalOf(host, allowLocal);
      if (refused) {
        callback(new BlockedAddressError(refused), null);
        return;
      }
    }
    base(options, callback);
  };
}

/** Pool settings of {@link createSafeAgent}. */
export interface SafeAgentOptions {
  /** Sockets per origin (undici `connections`); unbounded by default. */
  connections?: number;
  /** How long an idle kept-alive socket is kept. Default 4000 ms. */
  keepAliveTimeoutMs?: number;
}

/**
 * An undici Agent whose sockets only reach allowed addresses
 * ({@link createSafeConnector}: every new socket is checked, names at DNS
 * resolution). Idle sockets are kept alive per origin and reused. Redirects
 * are never followed (undici's default).
 */
export function createSafeAgent(allowLocal: boolean, options: SafeAgentOptions = {}): Agent {
  return new Agent({
    connect: createSafeConnector(allowLocal), keepAliveTimeout: options.keepAliveTimeoutMs ?? 4000,
    ...(options.connections ? { connections: options.connections } : {}),
  });
}
