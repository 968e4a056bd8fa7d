/** What a masked secret reads as. */
export const MASK = '********';

type NameValue = { name?: string; value?: string } & Record<string, unknown>;

function maskPairs(pairs: unknown): unknown {
  if (!Array.isArray(pairs)) return pairs;
  return pairs.map((p) => (p && typeof p === 'object' ? { ...(p as NameValue), value: (p as NameValue).value ? MASK : (p as NameValue).value } : p));
}

/** A URL with its user info and query values masked (names kept, so the shape stays readable). */
export function maskUrl(raw: string): string {
  const queryAt = raw.indexOf('?');
  let head = queryAt < 0 ? raw : raw.slice(0, queryAt);
  head = head.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, `$1${MASK}@`);
  if (queryAt < 0) return head;
  const query = raw.slice(queryAt + 1).split('&').map((part) => {
    const eq = part.indexOf('=');
    return eq < 0 ? part : `${part.slice(0, eq)}=${MASK}`;
  });
  return `${head}?${query.join('&')}`;
}

/**
 * A hook's notification as a role that may not edit hooks sees it: header and
 * query-parameter values, user info and query values of the URL, and any
 * `auth`/`token`/`secret`-like field are masked (as integration configs are).
 */
export function maskNotification(notification: Record<string, unknown> | null | undefined): Record<string, unknown> | null | undefined {
  if (!notification || typeof notification !== 'object') return notification;
  const payload = notification.payload as Record<string, unknown> | undefined;
  if (!payload || typeof payload !== 'object') return notification;
  const masked: Record<string, unknown> = { ...payload, headers: maskPairs(payload.headers), parameters: maskPairs(payload.parameters) };
  if (payload.headers === undefined) delete masked.headers;
  if (payload.parameters === undefined) delete masked.parameters;
  for (const [key, value] of Object.entries(payload)) {
    if (typeof value === 'string' && /^(path|url|webhook_url)$/i.test(key)) masked[key] = maskUrl(value);
    else if (/auth|token|secret|password|key/i.test(key) && value !== undefined && value !== null) masked[key] = MASK;
  }
  return { ...notification, payload: masked };
}
