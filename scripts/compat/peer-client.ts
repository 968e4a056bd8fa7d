/** What the compare scripts share: one HTTP call as a signed-in user, and signing in to a NocoDB peer or Tabula. */

/** A server answering (NocoDB's or Tabula's) and the caller's token. */
export interface PeerSide {
  url: string;
  token: string;
}

export interface Answer {
  status: number;
  body: any;
}

/** One call with `xc-auth`; a JSON body, or `form` for multipart; the answer parsed when it is JSON. */
export async function call(side: PeerSide, method: string, path: string, body?: unknown, form?: FormData): Promise<Answer> {
  const headers: Record<string, string> = { 'xc-auth': side.token };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${side.url}${path}`, { method, headers, body: form ?? (body === undefined ? undefined : JSON.stringify(body)) });
  const text = await res.text();
  let parsed: unknown = text;
  try { parsed = text ? JSON.parse(text) : undefined; } catch { /* not JSON */ }
  return { status: res.status, body: parsed };
}

/** Signs in (or, `orSignUp`, signs up when the sign-in fails: the first user of a fresh Tabula is its super admin). */
export async function signIn(url: string, email: string, password: string, orSignUp: boolean): Promise<string> {
  const post = (path: string) => fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  let res = await post('/api/v1/auth/user/signin');
  if (res.status !== 200 && orSignUp) res = await post('/api/v1/auth/user/signup');
  const body = await res.json() as { token?: string };
  if (!body.token) throw new Error(`${url}: no token (${res.status} ${JSON.stringify(body)})`);
  return body.token;
}
