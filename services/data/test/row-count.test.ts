import request from 'supertest';
import knexFactory from 'knex';
import { startDataHarness, type DataHarness } from './data-app.harness';
import { sourceVariants } from './source-variants';

const editor = { id: 'useditor0000001', email: 'ed@example.com' };
const T = '/api/v1/db/data/noco/pbase0000000001/Tasks';

/** pageInfo.totalRows of large tables (SVC_EXACT_COUNT_MAX_ROWS=0 makes every analyzed table "large"). */
describe('row counts of large tables', () => {
  let h: DataHarness;
  beforeAll(async () => {
    h = await startDataHarness({ SVC_EXACT_COUNT_MAX_ROWS: '0' });
    h.apis.tables.set('tasks', await sourceVariants[0].setup(h.database.url));
    h.apis.roles.set(`pbase0000000001:${editor.id}`, 'editor');
    const bodies = Array.from({ length: 40 }, (_, i) => ({ Title: `t${i}`, Count: i }));
    expect((await request(h.server).post(T.replace('/noco/', '/bulk/noco/')).set(h.as(editor)).send(bodies)).status).toBe(200);
    const db = knexFactory({ client: 'pg', connection: h.database.url });
    try { await db.raw('analyze pbase.tasks'); } finally { await db.destroy(); }
  });
  afterAll(async () => { await h?.stop(); });

  const page = async (query: string) => (await request(h.server).get(`${T}?${query}`).set(h.as(editor))).body;

  it('reports the planner estimate, flagged, for filtered and unfiltered pages without counting', async () => {
    const filtered = await page('where=(Count,gte,10)&limit=5');
    expect(filtered.list).toHaveLength(5);
    expect(filtered.pageInfo.isEstimate).toBe(true);
    expect(filtered.pageInfo.totalRows).toBeGreaterThan(0);
    expect(filtered.pageInfo.isLastPage).toBe(false);
    const all = await page('limit=5');
    expect(all.pageInfo).toMatchObject({ isEstimate: true, totalRows: 40, isLastPage: false });
  });

  it('still answers exact totals for partial pages and exact counts on /count', async () => {
    expect((await page('where=(Count,gte,30)&limit=25')).pageInfo).toMatchObject({ totalRows: 10, isLastPage: true });
    expect((await page('where=(Count,gte,30)&limit=25')).pageInfo.isEstimate).toBeUndefined();
    expect((await request(h.server).get(`${T}/count?where=(Count,gte,10)`).set(h.as(editor))).body).toEqual({ count: 30 });
  });
});

/** `count=exact`: exact up to SVC_EXACT_COUNT_MAX_ROWS matching rows however large the table, an estimate (flagged, at least the cap + 1) above. */
describe('count=exact on large tables', () => {
  let h: DataHarness;
  beforeAll(async () => {
    h = await startDataHarness({ SVC_EXACT_COUNT_MAX_ROWS: '20' });
    h.apis.tables.set('tasks', await sourceVariants[0].setup(h.database.url));
    h.apis.roles.set(`pbase0000000001:${editor.id}`, 'editor');
    const bodies = Array.from({ length: 40 }, (_, i) => ({ Title: `t${i}`, Count: i }));
    expect((await request(h.server).post(T.replace('/noco/', '/bulk/noco/')).set(h.as(editor)).send(bodies)).status).toBe(200);
    const db = knexFactory({ client: 'pg', connection: h.database.url });
    try { await db.raw('analyze pbase.tasks'); } finally { await db.destroy(); }
  });
  afterAll(async () => { await h?.stop(); });

  const page = async (query: string) => (await request(h.server).get(`${T}?${query}`).set(h.as(editor))).body;

  it('counts exactly up to the cap', async () => {
    const res = await page('where=(Count,gte,25)&limit=5&count=exact');
    expect(res.pageInfo.totalRows).toBe(15);
    expect(res.pageInfo.isEstimate).toBeUndefined();
    // Without count=exact the same table (estimated above the cap) answers the planner's estimate.
    expect((await page('where=(Count,gte,24)&limit=5')).pageInfo.isEstimate).toBe(true);
  });

  it('runs the count beside the page: both statements wait on a locked table at once', async () => {
    const admin = knexFactory({ client: 'pg', connection: h.database.url, pool: { min: 1, max: 2 } });
    const lock = await admin.transaction();
    try {
      await lock.raw('lock table pbase.tasks in access exclusive mode');
      // A new filter value: nothing cached.
      const pending = page('where=(Count,gte,26)&limit=5&count=exact');
      const waiting = async () => Number((await admin.raw(
        "select count(*) as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query ilike '%tasks%' and pid <> pg_backend_pid()",
      )).rows[0].n);
      let seen = 0;
      for (let tries = 0; tries < 100 && seen < 2; tries += 1) {
        seen = await waiting();
        if (seen < 2) await new Promise((r) => setTimeout(r, 20));
      }
      // Sequential, the count would be sent only after the page answered: one statement waiting.
      expect(seen).toBe(2);
      await lock.commit();
      const res = await pending;
      expect(res.pageInfo.totalRows).toBe(14);
      expect(res.pageInfo.isEstimate).toBeUndefined();
      expect(res.list).toHaveLength(5);
    } finally {
      if (!lock.isCompleted()) await lock.rollback();
      await admin.destroy();
    }
  });

  it('above the cap: an estimate, flagged, never below cap + 1', async () => {
    const res = await page('where=(Count,gte,5)&limit=5&count=exact');
    expect(res.pageInfo.isEstimate).toBe(true);
    expect(res.pageInfo.totalRows).toBeGreaterThanOrEqual(21);
  });
});

/** Cached exact totals follow this process's own writes instead of being recounted on every list. */
describe('cached totals and this process\'s writes', () => {
  let h: DataHarness;
  const counts: string[] = [];
  beforeAll(async () => {
    h = await startDataHarness();
    h.apis.tables.set('tasks', await sourceVariants[0].setup(h.database.url));
    h.apis.roles.set(`pbase0000000001:${editor.id}`, 'editor');
    const bodies = Array.from({ length: 40 }, (_, i) => ({ Title: `t${i}`, Count: i }));
    expect((await request(h.server).post(T.replace('/noco/', '/bulk/noco/')).set(h.as(editor)).send(bodies)).status).toBe(200);
    h.shared.dataDb.on('query', (q: { sql: string }) => { if (/count\(/i.test(q.sql)) counts.push(q.sql); });
  });
  afterAll(async () => { await h?.stop(); });

  const page = async (query: string) => (await request(h.server).get(`${T}?${query}`).set(h.as(editor))).body;
  const write = (method: 'post' | 'delete', path: string, body: unknown) => request(h.server)[method](path).set(h.as(editor)).send(body as object);

  it('moves the unfiltered total by the rows inserted and deleted, without a recount', async () => {
    expect((await page('limit=5')).pageInfo).toMatchObject({ totalRows: 40, isLastPage: false });
    expect(counts).toHaveLength(1);
    expect((await write('post', T, { Title: 'one', Count: 100 })).status).toBe(200);
    expect((await write('post', T.replace('/noco/', '/bulk/noco/'), [{ Title: 'two', Count: 101 }, { Title: 'three', Count: 102 }])).status).toBe(200);
    const first = (await page('limit=1')).list[0];
    expect((await write('delete', `${T}/${first.Id}`, {})).status).toBe(200);
    counts.length = 0;
    expect((await page('limit=5')).pageInfo).toMatchObject({ totalRows: 42, isLastPage: false });
    expect(counts).toHaveLength(0);
    // the cached total is still exact: the same count straight from the table
    expect((await request(h.server).get(`${T}/count`).set(h.as(editor))).body).toEqual({ count: 42 });
  });

  it('counts once for concurrent pages that need the same total', async () => {
    counts.length = 0;
    const pages = await Promise.all(Array.from({ length: 8 }, () => page('where=(Count,gte,1)&limit=2')));
    expect(counts).toHaveLength(1);
    const { count } = (await request(h.server).get(`${T}/count?where=(Count,gte,1)`).set(h.as(editor))).body;
    expect(pages.map((p) => p.pageInfo.totalRows)).toEqual(Array(8).fill(count));
  });

  it('recounts filtered totals after a write', async () => {
    expect((await page('where=(Count,gte,100)&limit=1')).pageInfo.totalRows).toBe(3);
    expect((await write('post', T, { Title: 'four', Count: 103 })).status).toBe(200);
    expect((await page('where=(Count,gte,100)&limit=1')).pageInfo.totalRows).toBe(4);
  });
  it('stays exact when pages and writes race: the kept total equals a fresh count afterwards', async () => {
    const work: Promise<unknown>[] = [];
    for (let i = 0; i < 30; i++) {
      work.push(write('post', T.replace('/noco/', '/bulk/noco/'), [{ Title: `race${i}a`, Count: 500 + i }, { Title: `race${i}b`, Count: 600 + i }]));
      if (i % 3 === 0) work.push(write('delete', `${T}/${1000 + i}`, {}));
      work.push(page('limit=5'));
    }
    await Promise.all(work);
    const { count } = (await request(h.server).get(`${T}/count`).set(h.as(editor))).body;
    expect((await page('limit=5')).pageInfo.totalRows).toBe(count);
  });
});
