import { startSecurityStack, type SecurityStack, type TestUser } from './security.helpers';

/** Issue 17 defects 1, 3, 11 and "Also": what one tenant can do to another. */
let s: SecurityStack;
beforeAll(async () => { s = await startSecurityStack(); });
afterAll(async () => { await s?.stop(); });

describe('security: tenancy', () => {
  it('defect 1: base resolution by title is scoped to the caller (404 for others, 409 naming ids when ambiguous)', async () => {
    const attacker = await s.signUp('attacker');
    const victim = await s.signUp('victim');
    const outsider = await s.signUp('outsider');
    const title = `Shared${Date.now()}`;
    const attackerBase = await s.createBase(attacker, title);
    await s.createTable(attacker, attackerBase, 'Items');
    const victimBase = await s.createBase(victim, title);
    await s.createTable(victim, victimBase, 'Items');

    // The victim's write addressed by title lands in the victim's own base, not the older one.
    const write = await s.call('POST', `/api/v1/db/data/noco/${title}/Items`, { token: victim.token, body: { Name: 'secret' } });
    expect(write.status).toBe(200);
    const own = await s.call('GET', `/api/v1/db/data/noco/${victimBase}/Items`, { token: victim.token });
    expect(own.body.list.map((r: { Name: string }) => r.Name)).toEqual(['secret']);

    // Another tenant's title is indistinguishable from a title nobody has (data and meta).
    const foreign = await s.call('GET', `/api/v1/db/data/noco/${title}/Items`, { token: outsider.token });
    const missing = await s.call('GET', `/api/v1/db/data/noco/NoSuchTitle${Date.now()}/Items`, { token: outsider.token });
    expect([foreign.status, foreign.body.error]).toEqual([404, 'ERR_BASE_NOT_FOUND']);
    expect([missing.status, missing.body.error]).toEqual([404, 'ERR_BASE_NOT_FOUND']);
    expect((await s.call('GET', `/api/v1/db/meta/projects/${title}`, { token: outsider.token })).status).toBe(404);

    // Added to the attacker's base without consent: the title is now ambiguous for the victim → 409 naming both ids.
    await s.addMember(attacker, attackerBase, victim.email, 'editor');
    const ambiguous = await s.call('POST', `/api/v1/db/data/noco/${title}/Items`, { token: victim.token, body: { Name: 'second' } });
    expect(ambiguous.status).toBe(409);
    expect(ambiguous.body.error).toBe('ERR_BASE_AMBIGUOUS');
    expect(ambiguous.body.message).toContain(attackerBase);
    expect(ambiguous.body.message).toContain(victimBase);
    expect((await s.call('GET', `/api/v1/db/meta/projects/${title}`, { token: victim.token })).status).toBe(409);
    const leaked = await s.call('GET', `/api/v1/db/data/noco/${attackerBase}/Items`, { token: attacker.token });
    expect(leaked.body.list).toEqual([]);
  });

  it('defect 3: hook secrets (headers, URL query values) are masked for roles that may not edit hooks', async () => {
    const owner = await s.signUp('hookowner');
    const viewer = await s.signUp('hookviewer');
    const baseId = await s.createBase(owner, `Hooks${Date.now()}`);
    const tableId = await s.createTable(owner, baseId, 'Items');
    await s.addMember(owner, baseId, viewer.email, 'viewer');
    const hook = await s.call('POST', `/api/v1/db/meta/tables/${tableId}/hooks`, {
      token: owner.token,
      body: {
        title: 'h', event: 'after', operation: 'insert', version: 'v2', notification: {
          type: 'URL', payload: { method: 'POST', path: 'https://example.com/hook?api_key=topsecret&x=1',
            headers: [{ name: 'Authorization', value: 'Bearer sekrit-token', enabled: true }] },
        },
      },
    });
    expect(hook.status).toBe(200);
    const asViewer = await s.call('GET', `/api/v1/db/meta/tables/${tableId}/hooks`, { token: viewer.token });
    expect(asViewer.status).toBe(200);
    const text = JSON.stringify(asViewer.body);
    expect(text).not.toContain('sekrit-token');
    expect(text).not.toContain('topsecret');
    expect(asViewer.body.list[0].notification.payload.headers[0]).toMatchObject({ name: 'Authorization', value: '********' });
    const asOwner = await s.call('GET', `/api/v1/db/meta/tables/${tableId}/hooks`, { token: owner.token });
    expect(JSON.stringify(asOwner.body)).toContain('sekrit-token');
  });

  it('defect 11: a base-scoped API token cannot create or duplicate bases', async () => {
    const owner = await s.signUp('scoped');
    const baseId = await s.createBase(owner, `Scoped${Date.now()}`);
    const token = await s.call('POST', `/api/v1/db/meta/projects/${baseId}/api-tokens`, { token: owner.token, body: { description: 'b' } });
    expect(token.status).toBe(200);
    const apiToken = token.body.token as string;
    expect((await s.call('GET', `/api/v1/db/meta/projects/${baseId}`, { apiToken })).status).toBe(200);
    const create = await s.call('POST', '/api/v1/db/meta/projects/', { apiToken, body: { title: 'Escaped' } });
    expect(create.status).toBe(403);
    const duplicate = await s.call('POST', `/api/v1/db/meta/duplicate/${baseId}`, { apiToken, body: {} });
    expect(duplicate.status).toBe(403);
    const list = await s.call('GET', '/api/v1/db/meta/projects/', { token: owner.token });
    expect(list.body.list.map((b: { title: string }) => b.title)).not.toContain('Escaped');
  });

  it('also: API tokens die with their owner\'s password change; a creator cannot revoke the owner\'s base tokens', async () => {
    const owner = await s.signUp('pwowner');
    const creator: TestUser = await s.signUp('pwcreator');
    const baseId = await s.createBase(owner, `Tokens${Date.now()}`);
    await s.addMember(owner, baseId, creator.email, 'creator');
    const org = await s.call('POST', '/api/v1/tokens', { token: owner.token, body: { description: 'org' } });
    const scoped = await s.call('POST', `/api/v1/db/meta/projects/${baseId}/api-tokens`, { token: owner.token, body: { description: 'b' } });
    const revoke = await s.call('DELETE', `/api/v1/db/meta/projects/${baseId}/api-tokens/${scoped.body.id}`, { token: creator.token });
    expect(revoke.status).toBe(403);
    expect((await s.call('GET', '/api/v1/auth/user/me', { apiToken: org.body.token })).body.email).toBe(owner.email);
    const change = await s.call('POST', '/api/v1/auth/password/change', {
      token: owner.token, body: { currentPassword: 'Password123!', newPassword: 'Password456!' },
    });
    expect(change.status).toBe(200);
    expect((await s.call('GET', '/api/v1/auth/user/me', { apiToken: org.body.token })).status).toBe(401);
    expect((await s.call('GET', `/api/v1/db/meta/projects/${baseId}`, { apiToken: scoped.body.token })).status).toBe(401);
  });
});
