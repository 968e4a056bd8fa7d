import { refreshCookie, resetTokenFromOutbox, startAuthStack, uniqueEmail, type AuthStack } from './auth-e2e.helpers';

let s: AuthStack;
const PASSWORD = 'correct-horse';

interface Account { email: string; token: string; refresh: string; id: string }

async function signUp(name: string): Promise<Account> {
  const email = uniqueEmail(name);
  const res = await s.call('POST', '/api/v1/auth/user/signup', { body: { email, password: PASSWORD } });
  expect(res.status).toBe(200);
  const me = await s.call('GET', '/api/v1/auth/user/me', { headers: { 'xc-auth': res.body.token } });
  return { email, token: res.body.token, refresh: refreshCookie(res.cookies) as string, id: me.body.id };
}

const meStatus = async (headers: Record<string, string>) => (await s.call('GET', '/api/v1/auth/user/me', { headers })).status;
const refresh = (token?: string) => s.call('POST', '/api/v1/auth/token/refresh', { headers: token ? { cookie: `refresh_token=${token}` } : {} });

let admin: Account;
beforeAll(async () => {
  // The test plays the TLS-terminating proxy, whose X-Forwarded-Proto the gateway believes.
  s = await startAuthStack({ SVC_TRUSTED_PROXIES: '127.0.0.1/32,::1/128' });
  admin = await signUp('admin');
});
afterAll(async () => {
  await s?.stop();
});

describe('refresh sessions', () => {
  it('sets an httpOnly SameSite=Lax cookie of 40 random bytes hex, stored hashed; Secure behind https', async () => {
    const res = await s.call('POST', '/api/v1/auth/user/signin', { body: { email: admin.email, password: PASSWORD }, headers: { 'x-forwarded-proto': 'https' } });
    const line = res.cookies.find((c) => c.startsWith('refresh_token=')) as string;
    expect(line).toMatch(/^refresh_token=[0-9a-f]{80}; Path=\/; Max-Age=2592000; HttpOnly; SameSite=Lax; Secure$/);
    const stored = await s.db.withSchema('auth').table('refresh_tokens').pluck('hash');
    expect(stored).not.toContain(refreshCookie(res.cookies));
  });

  it('rotates on every refresh; a reused rotated token revokes the whole family', async () => {
    const a = await signUp('rotating');
    const first = await refresh(a.refresh);
    expect(first.status).toBe(200);
    const next = refreshCookie(first.cookies) as string;
    expect(next).not.toBe(a.refresh);
    expect(await meStatus({ 'xc-auth': first.body.token })).toBe(200);
    const second = await refresh(next);
    expect(second.status).toBe(200);
    const third = refreshCookie(second.cookies) as string;

    const reuse = await refresh(a.refresh);
    expect({ status: reuse.status, error: reuse.body.error }).toEqual({ status: 401, error: 'ERR_AUTHENTICATION_REQUIRED' });
    expect((await refresh(third)).status).toBe(401);
    expect((await refresh()).status).toBe(401);
    expect((await refresh('0'.repeat(80))).status).toBe(401);
  });

  it('works under /api/v2 too, and an expired refresh token is refused', async () => {
    const a = await signUp('v2');
    expect((await s.call('POST', '/api/v2/auth/token/refresh', { headers: { cookie: `refresh_token=${a.refresh}` } })).status).toBe(200);
    const b = await signUp('expired');
    await s.db.withSchema('auth').table('refresh_tokens').where({ user_id: b.id }).update({ expires_at: new Date(Date.now() - 1000) });
    expect((await refresh(b.refresh)).status).toBe(401);
  });
});

describe('JWT death', () => {
  it('after sign-out: JWT and refresh token die and the cookie is cleared', async () => {
    const a = await signUp('leaving');
    const out = await s.call('POST', '/api/v1/auth/user/signout', { headers: { 'xc-auth': a.token } });
    expect(out.status).toBe(200);
    expect(out.cookies.find((c) => c.startsWith('refresh_token='))).toMatch(/^refresh_token=; .*Max-Age=0/);
    expect(await meStatus({ 'xc-auth': a.token })).toBe(401);
    expect((await refresh(a.refresh)).status).toBe(401);
  });

  it('after password change: every earlier JWT and refresh token dies', async () => {
    const a = await signUp('changer');
    const other = await s.call('POST', '/api/v1/auth/user/signin', { body: { email: a.email, password: PASSWORD } });
    expect(await meStatus({ authorization: `Bearer ${other.body.token}` })).toBe(200);
    const wrong = await s.call('POST', '/api/v1/auth/password/change', { body: { currentPassword: 'not-it-at-all', newPassword: 'new-password-1' }, headers: { 'xc-auth': a.token } });
    expect({ status: wrong.status, error: wrong.body.error }).toEqual({ status: 400, error: 'ERR_INVALID_REQUEST_BODY' });
    const changed = await s.call('POST', '/api/v1/auth/password/change', { body: { currentPassword: PASSWORD, newPassword: 'new-password-1' }, headers: { 'xc-auth': a.token } });
    expect(changed.status).toBe(200);
    expect(await meStatus({ 'xc-auth': a.token })).toBe(401);
    expect(await meStatus({ authorization: `Bearer ${other.body.token}` })).toBe(401);
    expect((await refresh(a.refresh)).status).toBe(401);
  });

  it('after password reset: every earlier JWT dies, even one cached by the gateway', async () => {
    const a = await signUp('resetter');
    expect(await meStatus({ 'xc-auth': a.token })).toBe(200);
    await s.call('POST', '/api/v1/auth/password/forgot', { body: { email: a.email } });
    const token = await resetTokenFromOutbox(s.db, a.email);
    expect((await s.call('POST', `/api/v1/auth/password/reset/${token}`, { body: { password: 'reset-password-1' } })).status).toBe(200);
    expect(await meStatus({ 'xc-auth': a.token })).toBe(401);
  });
});

describe('API tokens', () => {
  it('org token: created with its value once, used in xc-token/xc-auth/Bearer, listed without value, deleted → 401 at once', async () => {
    const created = await s.call('POST', '/api/v1/tokens', { body: { description: 'ci' }, headers: { 'xc-auth': admin.token } });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ id: expect.stringMatching(/^tkn[0-9a-z]{14}$/), token: expect.stringMatching(/^[A-Za-z0-9_-]{40}$/), description: 'ci', fk_user_id: admin.id, created_at: expect.any(String) });
    const value = created.body.token as string;
    const ways: Record<string, string>[] = [{ 'xc-token': value }, { 'xc-auth': value }, { authorization: `Bearer ${value}` }];
    for (const headers of ways) expect(await meStatus(headers)).toBe(200);

    const list = await s.call('GET', '/api/v1/tokens', { headers: { 'xc-auth': admin.token } });
    expect(list.body.list.map((t: { id: string }) => t.id)).toContain(created.body.id);
    expect(JSON.stringify(list.body)).not.toContain(value);
    expect(list.body.pageInfo).toMatchObject({ totalRows: 1, page: 1, isFirstPage: true, isLastPage: true });
    const byToken = await s.call('POST', '/api/v1/tokens', { body: {}, headers: { 'xc-token': value } });
    expect({ status: byToken.status, error: byToken.body.error }).toEqual({ status: 401, error: 'ERR_API_TOKEN_NOT_ALLOWED' });

    expect((await s.call('DELETE', `/api/v1/tokens/${created.body.id}`, { headers: { 'xc-auth': admin.token } })).status).toBe(200);
    const dead = await s.call('GET', '/api/v1/auth/user/me', { headers: { 'xc-token': value } });
    expect({ status: dead.status, error: dead.body.error }).toEqual({ status: 401, error: 'ERR_AUTHENTICATION_REQUIRED' });
    expect((await s.call('DELETE', `/api/v1/tokens/${created.body.id}`, { headers: { 'xc-auth': admin.token } })).status).toBe(404);
  });

  it('base token: refused outside its base, deleted → 401 at once', async () => {
    const created = await s.call('POST', '/api/v1/db/meta/projects/pbase000000000a/api-tokens', { body: { description: 'base a' }, headers: { 'xc-auth': admin.token } });
    expect(created.body.base_id).toBe('pbase000000000a');
    const value = created.body.token as string;
    expect((await s.call('GET', '/api/v1/db/meta/projects/pbase000000000a/users', { headers: { 'xc-token': value } })).status).toBe(200);
    const other = await s.call('GET', '/api/v1/db/meta/projects/pbase000000000b/users', { headers: { 'xc-token': value } });
    expect({ status: other.status, error: other.body.error }).toEqual({ status: 403, error: 'ERR_FORBIDDEN' });
    const listed = await s.call('GET', '/api/v1/db/meta/projects/pbase000000000a/api-tokens', { headers: { 'xc-auth': admin.token } });
    expect(listed.body.list).toEqual([expect.objectContaining({ id: created.body.id, base_id: 'pbase000000000a' })]);
    expect((await s.call('DELETE', `/api/v1/db/meta/projects/pbase000000000b/api-tokens/${created.body.id}`, { headers: { 'xc-auth': admin.token } })).status).toBe(404);
    expect((await s.call('DELETE', `/api/v1/db/meta/projects/pbase000000000a/api-tokens/${created.body.id}`, { headers: { 'xc-auth': admin.token } })).status).toBe(200);
    expect(await meStatus({ 'xc-token': value })).toBe(401);
  });
});

describe('base members', () => {
  it('invites, changes and removes a member; roles take effect at once', async () => {
    const base = '/api/v1/db/meta/projects/pbase00000000mm/users';
    const bob = await signUp('bob');
    const asBob = { 'xc-auth': bob.token };
    const asAdmin = { 'xc-auth': admin.token };
    expect((await s.call('GET', base, { headers: asBob })).status).toBe(403);

    expect((await s.call('POST', base, { body: { email: bob.email.toUpperCase(), roles: 'viewer' }, headers: asAdmin })).status).toBe(200);
    const listed = await s.call('GET', base, { headers: asBob });
    expect(listed.status).toBe(200);
    expect(listed.body.users.list).toEqual([expect.objectContaining({ id: bob.id, email: bob.email, roles: 'viewer' })]);
    expect((await s.call('POST', base, { body: { email: admin.email, roles: 'viewer' }, headers: asBob })).status).toBe(403);
    expect((await s.call('POST', base, { body: { email: bob.email, roles: 'viewer' }, headers: asAdmin })).status).toBe(400);
    expect((await s.call('POST', base, { body: { email: bob.email, roles: 'emperor' }, headers: asAdmin })).status).toBe(400);

    expect((await s.call('PATCH', `${base}/${bob.id}`, { body: { email: bob.email, roles: 'creator' }, headers: asAdmin })).status).toBe(200);
    const carol = await signUp('carol');
    expect((await s.call('POST', base, { body: { email: carol.email, roles: 'owner' }, headers: asBob })).status).toBe(403);
    expect((await s.call('POST', base, { body: { email: carol.email, roles: 'editor' }, headers: asBob })).status).toBe(200);

    expect((await s.call('DELETE', `${base}/${bob.id}`, { headers: asAdmin })).status).toBe(200);
    expect((await s.call('GET', base, { headers: asBob })).status).toBe(403);
    expect((await s.call('DELETE', `${base}/${bob.id}`, { headers: asAdmin })).status).toBe(404);
  });
});
