import { createTestDatabase, describeOnEachBus, startTestCluster, type TestCluster, type TestDatabase } from '@tabula/testing';

/**
 * Cluster mode: the data service (its own process) caches People, whose link
 * and lookup read the metadata of Teams. A schema change of Teams in meta (its
 * own process) reaches the data service over the bus and drops People too: the
 * cache lifetime is an hour here, so only the event can make the change visible
 * while the test waits (no elapsed-time bound).
 */
describeOnEachBus('relations: a related table change reaches the data service cache across processes', (bus) => {
  let database: TestDatabase;
  let cluster: TestCluster;
  let token: string;

  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${cluster.gatewayUrl}${path}`, {
      method, headers: { 'content-type': 'application/json', 'xc-auth': token }, body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    cluster = await startTestCluster(['auth', 'meta', 'data'], database.url, { EVENT_BUS: bus, SVC_TABLE_CACHE_TTL_MS: '3600000' });
    const res = await fetch(`${cluster.gatewayUrl}/api/v1/auth/user/signup`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: `rel-cache-${Date.now()}@example.com`, password: 'password-123' }),
    });
    token = ((await res.json()) as { token: string }).token;
  }, 120_000);
  afterAll(async () => { await cluster?.stop(); await database?.drop(); });

  it('renaming the looked-up column of Teams physically is followed by reads of People within a second', async () => {
    const baseId = (await call('POST', '/api/v1/db/meta/projects', { title: 'Cache cluster' })).body.id as string;
    const table = async (title: string) => (await call('POST', `/api/v1/db/meta/projects/${baseId}/tables`, {
      title, table_name: title.toLowerCase(),
      columns: [{ column_name: 'id', title: 'Id', uidt: 'ID', pk: true, ai: true }, { column_name: 'name', title: 'Name', uidt: 'SingleLineText' }],
    })).body as { id: string; columns: { id: string; title: string }[] };
    const teams = await table('Teams');
    const people = await table('People');
    const link = (await call('POST', `/api/v1/db/meta/tables/${people.id}/columns`, { title: 'Team', uidt: 'LinkToAnotherRecord', parentId: people.id, childId: teams.id, type: 'bt' })).body;
    const name = teams.columns.find((c) => c.title === 'Name')!;
    expect((await call('POST', `/api/v1/db/meta/tables/${people.id}/columns`, { title: 'TeamName', uidt: 'Lookup', fk_relation_column_id: link.id, fk_lookup_column_id: name.id })).status).toBe(200);
    expect((await call('POST', `/api/v1/db/data/noco/${baseId}/Teams`, { Name: 'red' })).status).toBe(200);
    expect((await call('POST', `/api/v1/db/data/noco/${baseId}/People`, { Name: 'ann', Team: { Id: 1 } })).status).toBe(200);
    const page = () => call('GET', `/api/v1/db/data/noco/${baseId}/People`);
    expect((await page()).body.list.map((r: any) => [r.Team, r.TeamName])).toEqual([[{ Id: 1, Name: 'red' }, 'red']]);

    expect((await call('PATCH', `/api/v1/db/meta/columns/${name.id}`, { title: 'Label', column_name: 'label' })).status).toBe(200);
    const changedAt = Date.now();
    let res = await page();
    while ((res.status !== 200 || res.body.list[0].Team?.Label !== 'red') && Date.now() - changedAt < 30_000) {
      await new Promise((r) => setTimeout(r, 50));
      res = await page();
    }
    expect(res.body.list.map((r: any) => [r.Team, r.TeamName])).toEqual([[{ Id: 1, Label: 'red' }, 'red']]);
  }, 60_000);
});
