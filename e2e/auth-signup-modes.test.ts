import { ConfigError, loadConfig } from '@tabula/config';
import { authConfigSchema } from '../services/auth/src/config';
import { startAuthStack, uniqueEmail, type AuthStack } from './auth-e2e.helpers';

/**
 * SVC_SIGNUP: `open` (default) anyone; `invite` the first user and e-mails
 * invited into a base; `closed` the first user only. A refusal is 403 with
 * NocoDB's body, given before the password or the e-mail's account is looked at.
 */
const PASSWORD = 'a-long-password';
const REFUSED = { error: 'ERR_FORBIDDEN', message: 'Not allowed to signup, contact super admin.', msg: 'Not allowed to signup, contact super admin.' };
const members = (baseId: string) => `/api/v1/db/meta/projects/${baseId}/users`;

async function signUp(s: AuthStack, email: string, password = PASSWORD) {
  return s.call('POST', '/api/v1/auth/user/signup', { body: { email, password } });
}

async function rolesOf(s: AuthStack, token: string): Promise<string> {
  return (await s.call('GET', '/api/v1/auth/user/me', { headers: { 'xc-auth': token } })).body.roles;
}

describe('SVC_SIGNUP=open (default)', () => {
  let s: AuthStack;
  beforeAll(async () => { s = await startAuthStack(); });
  afterAll(async () => { await s?.stop(); });

  it('lets anyone sign up; the first becomes super', async () => {
    const first = await signUp(s, uniqueEmail('open-first'));
    expect(first.status).toBe(200);
    expect(await rolesOf(s, first.body.token)).toContain('super');
    const second = await signUp(s, uniqueEmail('open-second'));
    expect(second.status).toBe(200);
    expect(await rolesOf(s, second.body.token)).toBe('org-level-viewer');
  });

  it('keeps refusing to invite an e-mail without an account (404: sign up first)', async () => {
    const admin = await s.call('POST', '/api/v1/auth/user/signin', { body: { email: (await s.db('auth.users').where('roles', 'like', '%super%').first()).email, password: PASSWORD } });
    const res = await s.call('POST', members('pbaseopen000001'), { body: { email: uniqueEmail('nobody'), roles: 'viewer' }, headers: { 'xc-auth': admin.body.token } });
    expect(res.status).toBe(404);
    expect(await s.db('auth.invitations').count({ n: '*' }).first()).toEqual({ n: 0 });
  });
});

describe('SVC_SIGNUP=closed', () => {
  let s: AuthStack;
  beforeAll(async () => { s = await startAuthStack({ SVC_SIGNUP: 'closed' }); });
  afterAll(async () => { await s?.stop(); });

  it('lets exactly one first user in (concurrent attempts), who becomes super; then nobody', async () => {
    const attempts = await Promise.all([1, 2, 3, 4].map((i) => signUp(s, uniqueEmail(`closed-${i}`))));
    expect(attempts.map((r) => r.status).sort()).toEqual([200, 403, 403, 403]);
    const admin = attempts.find((r) => r.status === 200)!;
    expect(await rolesOf(s, admin.body.token)).toBe('org-level-creator,super');
    for (const refused of attempts.filter((r) => r.status === 403)) expect(refused.body).toEqual(REFUSED);
    const later = await signUp(s, uniqueEmail('closed-later'));
    expect({ status: later.status, body: later.body }).toEqual({ status: 403, body: REFUSED });
  });

  it('refuses before looking at the password or whether the e-mail has an account', async () => {
    const existing = (await s.db('auth.users').first()).email;
    expect((await signUp(s, existing)).body).toEqual(REFUSED);
    expect((await signUp(s, uniqueEmail('closed-short'), 'short')).body).toEqual(REFUSED);
  });

  it('an invitation opens nothing: inviting an e-mail without an account stays 404', async () => {
    const email = (await s.db('auth.users').first()).email;
    const admin = await s.call('POST', '/api/v1/auth/user/signin', { body: { email, password: PASSWORD } });
    const invitee = uniqueEmail('closed-invitee');
    expect((await s.call('POST', members('pbaseclosed0001'), { body: { email: invitee, roles: 'editor' }, headers: { 'xc-auth': admin.body.token } })).status).toBe(404);
    expect((await signUp(s, invitee)).status).toBe(403);
  });
});

describe('SVC_SIGNUP=invite', () => {
  let s: AuthStack;
  let admin: string;
  beforeAll(async () => { s = await startAuthStack({ SVC_SIGNUP: 'invite' }); });
  afterAll(async () => { await s?.stop(); });

  it('lets the first user in (super), then refuses e-mails nobody invited', async () => {
    const first = await signUp(s, uniqueEmail('invite-admin'));
    expect(first.status).toBe(200);
    admin = first.body.token;
    expect(await rolesOf(s, admin)).toBe('org-level-creator,super');
    const stranger = await signUp(s, uniqueEmail('invite-stranger'));
    expect({ status: stranger.status, body: stranger.body }).toEqual({ status: 403, body: REFUSED });
  });

  it('an e-mail invited into bases signs up once and lands in them with the invited roles', async () => {
    const invitee = uniqueEmail('invitee');
    const asAdmin = { 'xc-auth': admin };
    const invite = await s.call('POST', members('pbaseinvite0001'), { body: { email: invitee.toUpperCase(), roles: 'editor' }, headers: asAdmin });
    expect(invite.body).toEqual({ msg: 'The user has been invited successfully' });
    expect((await s.call('POST', members('pbaseinvite0002'), { body: { email: invitee, roles: 'viewer' }, headers: asAdmin })).status).toBe(200);
    const joined = await signUp(s, invitee);
    expect(joined.status).toBe(200);
    expect(await rolesOf(s, joined.body.token)).toBe('org-level-viewer');
    const asInvitee = { 'xc-auth': joined.body.token };
    const listed = await s.call('GET', members('pbaseinvite0001'), { headers: asInvitee });
    expect(listed.status).toBe(200);
    expect(listed.body.users.list).toEqual([expect.objectContaining({ email: invitee, roles: 'editor' })]);
    expect((await s.call('GET', members('pbaseinvite0002'), { headers: asInvitee })).body.users.list)
      .toEqual([expect.objectContaining({ email: invitee, roles: 'viewer' })]);
    expect((await s.call('GET', members('pbaseinvite0003'), { headers: asInvitee })).status).toBe(403);
    // the invitation is spent: a second sign-up is refused like any other (nothing said about the account)
    expect((await signUp(s, invitee)).body).toEqual(REFUSED);
    expect(await s.db('auth.invitations').where({ email: invitee }).count({ n: '*' }).first()).toEqual({ n: 0 });
  });

  it('only someone who may grant the role invites; a refused invitation lets nobody in', async () => {
    const viewer = uniqueEmail('invite-viewer');
    expect((await s.call('POST', members('pbaseinvite0004'), { body: { email: viewer, roles: 'viewer' }, headers: { 'xc-auth': admin } })).status).toBe(200);
    const asViewer = { 'xc-auth': (await signUp(s, viewer)).body.token };
    const friend = uniqueEmail('invite-friend');
    expect((await s.call('POST', members('pbaseinvite0004'), { body: { email: friend, roles: 'editor' }, headers: asViewer })).status).toBe(403);
    expect((await s.call('POST', members('pbaseinvite0005'), { body: { email: friend, roles: 'viewer' }, headers: asViewer })).status).toBe(403);
    expect((await signUp(s, friend)).body).toEqual(REFUSED);
  });
});

describe('SVC_SIGNUP setting', () => {
  it('defaults to open and refuses anything but open, invite or closed at start', () => {
    expect(loadConfig(authConfigSchema, {}).SVC_SIGNUP).toBe('open');
    expect(() => loadConfig(authConfigSchema, { SVC_SIGNUP: 'maybe' })).toThrow(ConfigError);
    expect(() => loadConfig(authConfigSchema, { SVC_SIGNUP: 'maybe' })).toThrow(/SVC_SIGNUP: must be open, invite or closed; got "maybe"/);
  });
});
