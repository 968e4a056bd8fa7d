import argon2 from 'argon2';
import jwt from 'jsonwebtoken';
import { TEST_JWT_SECRET, resetTokenFromOutbox, startAuthStack, uniqueEmail, type AuthStack } from './auth-e2e.helpers';

let s: AuthStack;
let admin: { email: string; token: string; id: string };

const PASSWORD = 'correct-horse';

async function signUp(email: string, password = PASSWORD): Promise<string> {
  const res = await s.call('POST', '/api/v1/auth/user/signup', { body: { email, password } });
  expect(res.status).toBe(200);
  return res.body.token;
}

function expectError(res: { status: number; body: any }, status: number, code: string, message?: string | RegExp): void {
  expect({ status: res.status, error: res.body?.error }).toEqual({ status, error: code });
  expect(res.body.msg).toBe(res.body.message);
  if (message) expect(res.body.message).toMatch(message);
}

const me = (token: string) => s.call('GET', '/api/v1/auth/user/me', { headers: { 'xc-auth': token } });

beforeAll(async () => {
  s = await startAuthStack({ SVC_AUTH_MAX_FAILURES_PER_EMAIL: '3', SVC_AUTH_FREE_FAILURES: '3', SVC_AUTH_MAX_FORGOT_PER_EMAIL: '2' });
  const email = uniqueEmail('admin');
  const token = await signUp(email);
  admin = { email, token, id: (await me(token)).body.id };
});
afterAll(async () => {
  await s?.stop();
});

describe('sign-up and sign-in bad input', () => {
  it('wrong password and unknown e-mail: 400 Invalid credentials', async () => {
    expectError(await s.call('POST', '/api/v1/auth/user/signin', { body: { email: admin.email, password: 'wrong-password' } }), 400, 'ERR_INVALID_REQUEST_BODY', /^Invalid credentials$/);
    expectError(await s.call('POST', '/api/v2/auth/user/signin', { body: { email: uniqueEmail('nobody'), password: PASSWORD } }), 400, 'ERR_INVALID_REQUEST_BODY', /^Invalid credentials$/);
  });

  it('unknown e-mail costs a password verification like a wrong password (counted, not timed)', async () => {
    // The stack runs in this process: every argon2 verification the sign-in makes is counted. Without the
    // dummy verification an unknown e-mail would make none (and answer in about a millisecond); the
    // mechanism is also checked in services/auth/src/security/password-hasher.test.ts.
    const email = uniqueEmail('counted');
    await signUp(email);
    const verify = jest.spyOn(argon2, 'verify');
    try {
      const verificationsOf = async (who: string) => {
        const before = verify.mock.calls.length;
        const res = await s.call('POST', '/api/v1/auth/user/signin', { body: { email: who, password: 'wrong-password' } });
        expect(res.status).toBe(400);
        return verify.mock.calls.length - before;
      };
      const known = await verificationsOf(email);
      const unknown = await verificationsOf(uniqueEmail('ghost'));
      expect(known).toBe(1);
      expect(unknown).toBe(known);
    } finally {
      verify.mockRestore();
    }
  });

  it('duplicate sign-up, also with another case: 400 User already exist', async () => {
    expectError(await s.call('POST', '/api/v1/auth/user/signup', { body: { email: admin.email, password: PASSWORD } }), 400, 'ERR_INVALID_REQUEST_BODY', /^User already exist$/);
    expectError(await s.call('POST', '/api/v1/auth/user/signup', { body: { email: admin.email.toUpperCase(), password: PASSWORD } }), 400, 'ERR_INVALID_REQUEST_BODY', /^User already exist$/);
  });

  it('short password and malformed e-mail: 400', async () => {
    expectError(await s.call('POST', '/api/v1/auth/user/signup', { body: { email: uniqueEmail(), password: 'short' } }), 400, 'ERR_INVALID_REQUEST_BODY', /at least 8/);
    for (const email of ['not-an-email', 'a@b', '@example.com', 'a b@example.com', '']) {
      expectError(await s.call('POST', '/api/v1/auth/user/signup', { body: { email, password: PASSWORD } }), 400, 'ERR_INVALID_REQUEST_BODY', /^Invalid email$/);
    }
  });

  it('missing, non-JSON and wrongly typed bodies: 400', async () => {
    expectError(await s.call('POST', '/api/v1/auth/user/signup'), 400, 'ERR_INVALID_REQUEST_BODY');
    expectError(await s.call('POST', '/api/v1/auth/user/signin', { raw: '{"email": ', headers: { 'content-type': 'application/json' } }), 400, 'ERR_INVALID_JSON');
    const text = await s.call('POST', '/api/v1/auth/user/signin', { raw: 'email=a@b.co', headers: { 'content-type': 'text/plain' } });
    expect(text.status).toBe(400);
    expectError(await s.call('POST', '/api/v1/auth/user/signup', { body: { email: ['x@y.co'], password: PASSWORD } }), 400, 'ERR_INVALID_REQUEST_BODY');
  });

  it('extra roles/super fields and __proto__ keys never escalate', async () => {
    const a = await signUp(uniqueEmail('sneaky'), PASSWORD);
    expect((await me(a)).body.roles).toBe('org-level-viewer');
    const res = await s.call('POST', '/api/v1/auth/user/signup', { body: { email: uniqueEmail('roles'), password: PASSWORD, roles: 'org-level-creator,super', super: true } });
    expect((await me(res.body.token)).body.roles).toBe('org-level-viewer');
    const raw = `{"email":"${uniqueEmail('proto')}","password":"${PASSWORD}","__proto__":{"roles":"super","isAdmin":true}}`;
    const proto = await s.call('POST', '/api/v1/auth/user/signup', { raw, headers: { 'content-type': 'application/json' } });
    expect(proto.status).toBeLessThan(500);
    if (proto.status === 200) expect((await me(proto.body.token)).body.roles).toBe('org-level-viewer');
  });

  it('failed sign-ins back off per e-mail and address: 429 with Retry-After; successes do not count', async () => {
    const email = uniqueEmail('limited');
    await signUp(email);
    for (let i = 0; i < 5; i += 1) expect((await s.call('POST', '/api/v1/auth/user/signin', { body: { email, password: PASSWORD } })).status).toBe(200);
    for (let i = 0; i < 3; i += 1) expect((await s.call('POST', '/api/v1/auth/user/signin', { body: { email, password: 'wrong-password' } })).status).toBe(400);
    const limited = await s.call('POST', '/api/v1/auth/user/signin', { body: { email, password: PASSWORD } });
    expectError(limited, 429, 'ERR_TOO_MANY_REQUESTS');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await s.call('POST', '/api/v1/auth/user/signin', { body: { email: admin.email, password: PASSWORD } })).status).toBe(200);
  });
});

describe('JWT bad input: 401 ERR_AUTHENTICATION_REQUIRED', () => {
  const claims = () => jwt.decode(admin.token) as Record<string, unknown>;

  it('refuses expired, foreign-secret, alg none and tampered tokens, in xc-auth and Bearer', async () => {
    const { iat: _iat, exp: _exp, ...base } = claims();
    const expired = jwt.sign({ ...base, exp: Math.floor(Date.now() / 1000) - 5 }, TEST_JWT_SECRET, { algorithm: 'HS256' });
    const foreign = jwt.sign(base, 'some-other-secret-0123456789', { algorithm: 'HS256', expiresIn: '1h' });
    const hs512 = jwt.sign(base, TEST_JWT_SECRET, { algorithm: 'HS512', expiresIn: '1h' });
    const [h, p, sig] = admin.token.split('.');
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${p}.`;
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...claims(), email: 'evil@example.com' })).toString('base64url')}.${sig}`;
    for (const token of [expired, foreign, hs512, none, tampered]) {
      expectError(await me(token), 401, 'ERR_AUTHENTICATION_REQUIRED', 'Authentication required - Invalid token');
      expectError(await s.call('GET', '/api/v1/auth/user/me', { headers: { authorization: `Bearer ${token}` } }), 401, 'ERR_AUTHENTICATION_REQUIRED');
    }
    expect((await s.call('GET', '/api/v1/auth/user/me', { headers: { authorization: `Bearer ${admin.token}` } })).status).toBe(200);
    expectError(await s.call('GET', '/api/v1/auth/user/me'), 401, 'ERR_AUTHENTICATION_REQUIRED');
  });

  it('a client-sent identity header is not trusted', async () => {
    const res = await s.call('GET', '/api/v1/auth/user/me', { headers: { 'x-tabula-identity': 'forged' } });
    expectError(res, 401, 'ERR_AUTHENTICATION_REQUIRED');
  });
});

describe('password reset bad input', () => {
  it('answers forgot the same for unknown e-mails, and a reset token works once and not after expiry', async () => {
    const email = uniqueEmail('forgetful');
    await signUp(email);
    const known = await s.call('POST', '/api/v1/auth/password/forgot', { body: { email } });
    const unknown = await s.call('POST', '/api/v1/auth/password/forgot', { body: { email: uniqueEmail('nobody') } });
    expect([known.status, unknown.status]).toEqual([200, 200]);
    expect(unknown.body).toEqual(known.body);

    const token = await resetTokenFromOutbox(s.db, email);
    expectError(await s.call('POST', `/api/v1/auth/password/reset/${token}`, { body: { password: 'short' } }), 400, 'ERR_INVALID_REQUEST_BODY');
    expect((await s.call('POST', `/api/v1/auth/password/reset/${token}`, { body: { password: 'brand-new-pass' } })).status).toBe(200);
    expectError(await s.call('POST', `/api/v1/auth/password/reset/${token}`, { body: { password: 'another-pass-1' } }), 400, 'ERR_INVALID_REQUEST_BODY', /Invalid reset url/);
    expectError(await s.call('POST', '/api/v1/auth/password/reset/not-a-token', { body: { password: 'another-pass-1' } }), 400, 'ERR_INVALID_REQUEST_BODY');
    expect((await s.call('POST', '/api/v1/auth/user/signin', { body: { email, password: 'brand-new-pass' } })).status).toBe(200);

    await s.call('POST', '/api/v2/auth/password/forgot', { body: { email } });
    const expiring = await resetTokenFromOutbox(s.db, email);
    await s.db.withSchema('auth').table('password_resets').whereNull('used_at').update({ expires_at: new Date(Date.now() - 1000) });
    expectError(await s.call('POST', `/api/v1/auth/password/reset/${expiring}`, { body: { password: 'another-pass-1' } }), 400, 'ERR_INVALID_REQUEST_BODY');
    expectError(await s.call('POST', '/api/v1/auth/password/forgot', { body: { email } }), 429, 'ERR_TOO_MANY_REQUESTS');
  });
});
