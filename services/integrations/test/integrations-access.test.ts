import { startIntegrationsHarness, users, type IntegrationsHarness } from './integrations-app.harness';

/**
 * Who may touch integrations (issue 28, findings 2 and 7), at the service: the
 * contracts admit org creators and super by session or org-wide token; a
 * base-scoped token of an org creator and a plain user are refused, as a
 * missing id wherever the route names an integration.
 */
const M = '/api/v2/meta/integrations';
const I = '/api/v2/integrations';
const SECRET = 'pg-Secret-Password-28';
let h: IntegrationsHarness;
let id: string;

/** The owner's base-scoped API token (the owner is an org creator). */
const baseToken = () => h.as({ ...users.owner, via: 'api-token', tokenId: 'tk0000000000base', baseScope: 'p0000000000base' });
const orgToken = () => h.as({ ...users.owner, via: 'api-token', tokenId: 'tk00000000000org' });
/** A body with the id it names replaced, to compare with the answer to another id. */
const without = (body: unknown, named: string) => JSON.stringify(body).split(named).join('<id>');

beforeAll(async () => {
  h = await startIntegrationsHarness();
  id = (await h.http.post(M).set(h.as(users.owner)).send({
    title: 'Warehouse', type: 'database', sub_type: 'pg',
    config: { client: 'pg', connection: { host: 'db.example.com', port: 5432, user: 'app', password: SECRET, database: 'sales' } },
  }).expect(200)).body.id;
  h.meta.sources.set(id, [{ id: 'bs0000000secret', base_id: 'p0000000secret', alias: 'Secret base', type: 'pg' }]);
});
afterAll(async () => { await h.stop(); });

/** Every call of the workspace's integrations: [what, method, path, body]. */
function calls(target: string): Array<[string, 'get' | 'post' | 'patch' | 'delete', string, object?]> {
  return [
    ['get with config', 'get', `${M}/${target}?includeConfig=true&includeSources=true`],
    ['update', 'patch', `${M}/${target}`, { config: { connection: { host: 'evil.example.com' } } }],
    ['delete', 'delete', `${M}/${target}?force=true`],
    ['store', 'post', `${I}/${target}/store`, { op: 'list' }],
    ['endpoint call', 'post', `${I}/${target}/testConnection`, {}],
  ];
}

async function send(who: Record<string, string>, method: 'get' | 'post' | 'patch' | 'delete', path: string, body?: object) {
  const req = h.http[method](path).set(who);
  return body ? req.send(body) : req;
}

describe('a base-scoped API token of an org creator (finding 2)', () => {
  it('may neither list nor create integrations (403)', async () => {
    const listed = await h.http.get(M).set(baseToken());
    expect([listed.status, listed.body.error]).toEqual([403, 'ERR_FORBIDDEN']);
    expect(JSON.stringify(listed.body)).not.toContain('Warehouse');
    const created = await h.http.post(M).set(baseToken()).send({ title: 'Token made', type: 'ai', sub_type: 'openai', config: { apiKey: 'sk-1' } });
    expect(created.status).toBe(403);
    expect((await h.http.get(M).set(h.as(users.owner)).expect(200)).body.map((i: { title: string }) => i.title)).toEqual(['Warehouse']);
  });

  it('finds no integration by id: each route answers as for a missing id, nothing changes', async () => {
    const missing = calls('intmissing00000');
    for (const [i, [what, method, path, body]] of calls(id).entries()) {
      const res = await send(baseToken(), method, path, body);
      const none = await send(baseToken(), missing[i][1], missing[i][2], missing[i][3]);
      expect([what, res.status, without(res.body, id)]).toEqual([what, 404, without(none.body, 'intmissing00000')]);
      expect(JSON.stringify(res.body)).not.toMatch(new RegExp(`${SECRET}|secret|db\\.example\\.com`, 'i'));
    }
    const kept = (await h.http.get(`${M}/${id}?includeConfig=true`).set(h.as(users.owner)).expect(200)).body;
    expect(kept.config.connection).toMatchObject({ host: 'db.example.com', password: SECRET });
  });

  it('the same user by session or org-wide token still manages them', async () => {
    for (const who of [h.as(users.owner), orgToken()]) {
      expect((await h.http.get(`${M}/${id}?includeConfig=true`).set(who).expect(200)).body.config.connection.password).toBe(SECRET);
      expect((await h.http.get(M).set(who).expect(200)).body).toHaveLength(1);
    }
  });
});

describe('a plain signed-up user (org-level-viewer, finding 7)', () => {
  it('reads no integration by id: 404 exactly like a missing id, no base ids or names', async () => {
    const missing = calls('intmissing00000');
    for (const [i, [what, method, path, body]] of calls(id).entries()) {
      const res = await send(h.as(users.viewer), method, path, body);
      const none = await send(h.as(users.viewer), missing[i][1], missing[i][2], missing[i][3]);
      expect([what, res.status, without(res.body, id)]).toEqual([what, 404, without(none.body, 'intmissing00000')]);
      expect(JSON.stringify(res.body)).not.toMatch(/p0000000secret|bs0000000secret|Secret base|Warehouse/);
    }
  });

  it('may neither list nor create (403); the type registry stays readable', async () => {
    expect((await h.http.get(M).set(h.as(users.viewer))).status).toBe(403);
    expect((await h.http.post(M).set(h.as(users.viewer)).send({ title: 'x', type: 'ai', sub_type: 'openai' })).status).toBe(403);
    expect((await h.http.get(I).set(h.as(users.viewer)).expect(200)).body.list.length).toBeGreaterThan(0);
    expect((await h.http.get(`${I}/database/pg`).set(baseToken()).expect(200)).body.secret_fields).toContain('connection.password');
  });
});
