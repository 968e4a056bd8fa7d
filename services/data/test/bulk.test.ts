import request from 'supertest';
import knexFactory from 'knex';
import { RecordsChangedSchema, decodeEvent } from '@tabula/contracts';
import { describeWithBackend } from '@tabula/testing';
import { startDataHarness, type DataHarness } from './data-app.harness';
import { mysqlVariant, sourceVariants, type SourceVariant } from './source-variants';

const editor = { id: 'useditor0000001', email: 'ed@example.com' };
const B = '/api/v1/db/data/bulk/noco/pbase0000000001/Tasks';
const T = '/api/v1/db/data/noco/pbase0000000001/Tasks';

for (const variant of sourceVariants) describe(`bulk on the ${variant.name}`, () => bulkSuite(variant));
describeWithBackend('mysql', 'bulk on an external MariaDB', () => bulkSuite(mysqlVariant() as SourceVariant));

function bulkSuite(variant: SourceVariant): void {
  let h: DataHarness;
  beforeAll(async () => {
    h = await startDataHarness({ SVC_BULK_MAX_RECORDS: '5' });
    h.apis.tables.set('tasks', await variant.setup(h.database.url));
    h.apis.roles.set(`pbase0000000001:${editor.id}`, 'editor');
  });
  afterAll(async () => { await h?.stop(); await variant.teardown?.(); });

  const send = (method: 'post' | 'patch' | 'delete', path: string, body?: unknown) =>
    request(h.server)[method](path).set(h.as(editor)).send(body as object);
  const count = async () => (await request(h.server).get(`${T}/count`).set(h.as(editor))).body.count as number;

  const after = () => h.events.filter((e) => e.type.startsWith('records.after.'));

  /** Waits until the test consumer has seen `n` committed-write events (the relay publishes after commit). */
  async function eventsSettle(n: number): Promise<void> {
    for (let i = 0; i < 100 && after().length < n; i++) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 100));
    expect(after()).toHaveLength(n);
  }

  describe('bulk', () => {
    it('inserts all records in one transaction and announces them in one event', async () => {
      const res = await send('post', B, [{ Title: 'a', Count: 1 }, { Title: 'b', Count: 2 }, { Title: 'c', Count: 3 }]);
      expect(res.status).toBe(200);
      expect(res.body.map((r: { Title: string }) => r.Title)).toEqual(['a', 'b', 'c']);
      await eventsSettle(1);
      const event = decodeEvent(RecordsChangedSchema, after()[0].payload);
      expect(after()[0]).toMatchObject({ type: 'records.after.insert', key: 'mtasks00000000' });
      expect(JSON.parse(event.rowsJson)).toHaveLength(3);
    });

    it('writes nothing and announces nothing when one record is bad, naming its index', async () => {
      const res = await send('post', B, [{ Title: 'ok' }, { Title: 'bad', Count: 'x' }]);
      expect(res.status).toBe(400);
      expect(res.body.message).toContain('Record 1');
      expect(res.body.details).toMatchObject({ index: 1, field: 'Count' });
      const over = await send('post', B, Array.from({ length: 6 }, (_, i) => ({ Title: `t${i}` })));
      expect(over.status).toBe(422);
      expect(over.body).toMatchObject({ error: 'ERR_MAX_PAYLOAD_LIMIT_EXCEEDED', message: 'Maximum 5 entities are allowed per request' });
      const dup = await send('post', B, [{ Title: 'd1', Code: 'Z' }, { Title: 'd2', Code: 'Z' }]);
      expect(dup.status).toBe(400);
      expect(dup.body.details).toMatchObject({ index: 1 });
      expect(await count()).toBe(3);
      await eventsSettle(1);
    });

    it('updates by key, inserts before a row, upserts', async () => {
      const upd = await send('patch', B, [{ Id: 1, Count: 10 }, { Id: 2, Count: 20 }]);
      expect(upd.body.map((r: { Count: number }) => r.Count)).toEqual([10, 20]);
      await eventsSettle(2);
      const ev = decodeEvent(RecordsChangedSchema, after()[1].payload);
      expect(JSON.parse(ev.previousRowsJson).map((r: { Count: number }) => r.Count)).toEqual([1, 2]);
      expect((await send('patch', B, [{ Id: 999, Count: 1 }])).status).toBe(404);
      const first = await send('post', `${T}?before=1`, { Title: 'zero' });
      expect(first.status).toBe(200);
      const list = await request(h.server).get(T).set(h.as(editor));
      expect(list.body.list[0].Title).toBe('zero');
      const up = await send('post', `${B}/upsert`, [{ Id: 1, Title: 'A!' }, { Title: 'new' }]);
      expect(up.status).toBe(200);
      expect(up.body.map((r: { Title: string }) => r.Title)).toEqual(['A!', 'new']);
      await eventsSettle(5);
      expect(after().slice(3).map((e) => e.type)).toEqual(['records.after.insert', 'records.after.update']);
    });

    it('update-all and delete-all need a where (or all=true) and answer counts', async () => {
      expect((await send('patch', `${B}/all`, { Done: true })).status).toBe(400);
      expect((await send('delete', `${B}/all`)).status).toBe(400);
      await eventsSettle(5);
      expect((await send('patch', `${B}/all?where=(Count,gte,10)&skipPks=2`, { Done: true })).body).toBe(1);
      expect((await send('patch', `${B}/all?where=(Count,gte,10)`, { Done: true })).body).toBe(2);
      await eventsSettle(7);
      expect((await send('delete', `${B}/all?viewId=vwdone00000000`)).body).toBe(2);
      const del = await send('delete', B, [{ Id: 3 }, { Id: 12345 }]);
      expect(del.body).toEqual([{ Id: 3 }, null]);
      await eventsSettle(9);
      const left = await count();
      expect(left).toBe(2);
      expect((await send('delete', `${B}/all?all=true`)).body).toBe(left);
      expect(await count()).toBe(0);
      await eventsSettle(10);
    });

    it('stamps every row of a batch with the same times and user (sent once), each row with its own values', async () => {
      // The same keys in every row: one JSON parameter (json_populate_recordset), the stamps once beside it.
      const res = await send('post', B, [{ Title: 'p', Count: 1, Done: true, Email: null }, { Title: 'q', Count: 2, Done: false, Email: null }, { Title: 'r', Count: 3, Done: false, Email: 'r@x.io' }]);
      expect(res.status).toBe(200);
      expect(res.body.map((r: { Title: string; Count: number; Done: boolean }) => [r.Title, r.Count, r.Done])).toEqual([['p', 1, true], ['q', 2, false], ['r', 3, false]]);
      const ids = res.body.map((r: { Id: number }) => r.Id);
      const all = (await request(h.server).get(`${T}?where=(Count,gte,1)&sort=Id`).set(h.as(editor))).body.list as Record<string, unknown>[];
      expect(all.map((r) => r.Id)).toEqual(ids);
      expect(all.map((r) => r.Email)).toEqual([null, null, 'r@x.io']);
      for (const r of all) {
        expect(r.CreatedAt).toBeTruthy();
        expect([r.CreatedAt, r.UpdatedAt]).toEqual([all[0].CreatedAt, all[0].CreatedAt]);
      }
      if (variant.name.includes('SQLite') || variant.name.includes('MariaDB')) return;
      const schema = variant.name === 'default source' ? 'pbase' : 'ext';
      const db = knexFactory({ client: 'pg', connection: h.database.url });
      try {
        const stored = await db.withSchema(schema).table('tasks').whereIn('id', ids).orderBy('id').select('created_by', 'updated_by', 'title');
        expect(stored).toEqual([
          { created_by: editor.id, updated_by: editor.id, title: 'p' },
          { created_by: editor.id, updated_by: editor.id, title: 'q' },
          { created_by: editor.id, updated_by: editor.id, title: 'r' },
        ]);
      } finally { await db.destroy(); }
    });
  });
}
