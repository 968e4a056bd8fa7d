import { Api } from 'nocodb-sdk';
import { startAuthStack, uniqueEmail, type AuthStack } from './auth-e2e.helpers';

let s: AuthStack;
beforeAll(async () => {
  s = await startAuthStack();
});
afterAll(async () => {
  await s?.stop();
});

/** The status of a rejected nocodb-sdk call (axios error). */
async function statusOf(p: Promise<unknown>): Promise<number | undefined> {
  try {
    await p;
    return 200;
  } catch (err) {
    return (err as { response?: { status?: number } }).response?.status;
  }
}

describe('auth through the real nocodb-sdk@0.301.3 client', () => {
  it('signs up, signs in, reads me, changes the password and signs out', async () => {
    const anonymous = new Api({ baseURL: s.stack.url });
    const email = uniqueEmail('sdk');
    const { token: signupToken } = await anonymous.auth.signup({ email: email.toUpperCase(), password: 'password-1', firstname: 'Ada', lastname: 'L' } as never);
    expect(signupToken).toEqual(expect.any(String));

    const { token } = await anonymous.auth.signin({ email, password: 'password-1' });
    const api = new Api({ baseURL: s.stack.url, headers: { 'xc-auth': token as string } });
    const me = await api.auth.me();
    expect(me).toEqual({
      id: expect.stringMatching(/^us[0-9a-z]{14}$/), email, email_verified: false,
      firstname: 'Ada', lastname: 'L', roles: 'org-level-creator,super',
    });

    await api.auth.passwordChange({ currentPassword: 'password-1', newPassword: 'password-2' });
    expect(await statusOf(api.auth.me())).toBe(401);
    expect(await statusOf(anonymous.auth.signin({ email, password: 'password-1' }))).toBe(400);

    const { token: token2 } = await anonymous.auth.signin({ email, password: 'password-2' });
    const api2 = new Api({ baseURL: s.stack.url, headers: { 'xc-auth': token2 as string } });
    expect((await api2.auth.me()).email).toBe(email);
    expect(await api2.auth.signout()).toEqual({ msg: 'Signed out successfully' });
    expect(await statusOf(api2.auth.me())).toBe(401);

    const later = await anonymous.auth.signup({ email: uniqueEmail('second'), password: 'password-3' });
    const api3 = new Api({ baseURL: s.stack.url, headers: { 'xc-auth': later.token as string } });
    expect((await api3.auth.me()).roles).toBe('org-level-viewer');
  });
});
