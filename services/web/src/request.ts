/**
 * The browser's HTTP transport to the public API: the session token lives in
 * memory and localStorage and goes only in the `xc-auth` header, never in a
 * URL; an error answer becomes an ApiError with the server's message. The
 * typed client (client.ts) and api.ts's functions go through `api`.
 */
const TOKEN_KEY = 'tabula-token';
let token: string | null = readStoredToken();
const listeners = new Set<() => void>();

function readStoredToken(): string | null {
  try { return localStorage.getItem(TOKEN_KEY); } catch { return null; }
}

export function currentToken(): string | null {
  return token;
}

export function setToken(next: string | null): void {
  token = next;
  try {
    if (next) localStorage.setItem(TOKEN_KEY, next);
    else localStorage.removeItem(TOKEN_KEY);
  } catch { /* private mode: memory only */ }
  for (const listener of listeners) listener();
}

export function onTokenChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** An API error: the status and the server's `message`. */
export class ApiError extends Error {
  constructor(readonly status: number, readonly code: string, message: string) {
    super(message);
  }
}

export type Query = Record<string, string | number | undefined>;

/** A path with its query string (empty values left out). */
export function withQuery(path: string, query?: Query): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(key, String(value));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

/** The generic request: any method and path of the API, JSON or multipart body. */
export async function api<T = any>(method: string, path: string, options: { body?: unknown; query?: Query; form?: FormData } = {}): Promise<T> {
  const headers: Record<string, string> = {};
  if (token) headers['xc-auth'] = token;
  let body: BodyInit | undefined;
  if (options.form) body = options.form;
  else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const response = await fetch(withQuery(path, options.query), { method, headers, body, credentials: 'same-origin' });
  const text = await response.text();
  let data: any = undefined;
  try { data = text ? JSON.parse(text) : undefined; } catch { data = text; }
  if (!response.ok) {
    if (response.status === 401 && token && !path.startsWith('/api/v1/auth/user/sign')) setToken(null);
    throw new ApiError(response.status, data?.error ?? 'ERR', data?.message ?? data?.msg ?? `${response.status} ${response.statusText}`);
  }
  return data as T;
}
