import type { IncomingHttpHeaders } from 'node:http';

/** A credential found on a request. */
export interface Credential {
  kind: 'jwt' | 'api-token';
  token: string;
}

const first = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v)?.trim() || undefined;

/** A JWT has three dot-separated parts; anything else is taken as an API token. */
function classify(token: string): Credential {
  return { kind: token.split('.').length === 3 ? 'jwt' : 'api-token', token };
}

/**
 * Reads the caller's credential: `xc-token` (API token), `xc-auth` (JWT or API
 * token), or `Authorization: Bearer` (either) — compat-notes "Auth".
 */
export function readCredential(headers: IncomingHttpHeaders): Credential | undefined {
  const xcToken = first(headers['xc-token']);
  if (xcToken) return { kind: 'api-token', token: xcToken };
  const xcAuth = first(headers['xc-auth']);
  if (xcAuth) return classify(xcAuth);
  const authorization = first(headers.authorization);
  const match = authorization ? /^Bearer\s+(.+)$/i.exec(authorization) : null;
  if (match) return classify(match[1].trim());
  return undefined;
}
