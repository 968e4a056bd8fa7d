import { errors, checkHost } from '@tabula/http';
import type { Dialect } from '../ddl/dialect';
import type { ConnectionConfig } from './external-config';

/** How long connecting to an external source may take before it counts as unreachable. */
export const SOURCE_CONNECT_TIMEOUT_MS = 5_000;

/** The hosts a connection would reach: its `host` field, the connection string's host(s) or the driver default. */
export function hostsOf(connection: ConnectionConfig): string[] {
  const hosts: string[] = [];
  if (typeof connection.host === 'string' && connection.host !== '') hosts.push(connection.host);
  if (typeof connection.connectionString === 'string') {
    let url: URL;
    try { url = new URL(connection.connectionString); } catch { throw errors.badRequest('sources[].config.connection is not a valid connection string'); }
    // `postgres://u@h1,h2/db` lists several hosts; `?host=` (a socket directory or a name) overrides them
    hosts.push(...url.host.split(',').map((h) => h.replace(/:\d+$/, '')).filter(Boolean));
    const param = url.searchParams.get('host');
    if (param) hosts.push(param);
  }
  // No host at all: the drivers connect to localhost (or a local socket)
  return hosts.length > 0 ? hosts : ['localhost'];
}

/**
 * Applies the address policy to an external source's hosts (libs/http
 * `checkHost`): public addresses only, unless `allowLocal`
 * (`SVC_ALLOW_LOCAL_SOURCES=true`) also allows loopback and private ones.
 * Link-local (cloud metadata), reserved addresses and socket paths are always refused.
 */
export async function assertSourceHostsAllowed(type: Dialect, connection: ConnectionConfig, allowLocal: boolean): Promise<void> {
  if (type === 'sqlite3') return;
  const hosts = hostsOf(connection);
  // A socket path reaches this machine whatever the other hosts are.
  if (hosts.some((h) => h.startsWith('/'))) throw refused();
  for (const host of hosts) {
    const check = await checkHost(host, { allowLocal });
    if (check.refusal === 'unresolvable') throw unreachable(type);
    if (check.refusal) throw refused();
  }
}

/** The one answer for every connection failure (no driver code, host or timing detail: no port scanning). */
export function unreachable(type: Dialect) {
  return errors.badRequest(`Cannot connect to the external ${type} database`);
}

function refused() {
  return errors.badRequest('The external database host is not allowed: private, loopback and link-local addresses are refused unless SVC_ALLOW_LOCAL_SOURCES=true');
}

/** The connection settings with the short connect timeout of each driver. */
export function withConnectTimeout(type: Dialect, connection: ConnectionConfig): ConnectionConfig {
  if (type === 'pg') return { connectionTimeoutMillis: SOURCE_CONNECT_TIMEOUT_MS, ...connection };
  if (type === 'mysql2') return { connectTimeout: SOURCE_CONNECT_TIMEOUT_MS, ...connection };
  return connection;
}
