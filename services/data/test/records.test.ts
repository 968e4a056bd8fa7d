import request from 'supertest';
import { describeWithBackend } from '@tabula/testing';
import { startDataHarness, type DataHarness } from './data-app.harness';
import { mysqlVariant, sourceVariants, type SourceVariant } from './source-variants';

const editor = { id: 'useditor0000001', email: 'ed@example.com' };
const viewer = { id: 'usviewer0000001', email: 'view@example.com' };
const T = '/api/v1/db/data/noco/pbase0000000001/Tasks';

for (const variant of sourceVariants) describe(`records on the ${variant.name}`, () => recordsSuite(variant));
describeWithBackend('mysql', 'records on an external MariaDB', () => recordsSuite(mysqlVariant() as SourceVariant));

function recordsSuite(variant: SourceVariant): void {
  let h: DataHarness;
  beforeAll(async () => {
    h = await startDataHarness();
    h.apis.tables.set('tasks', await variant.setup(h.database.url));
    h.apis.roles.set(`pbase0000000001:${editor.id}`, 'editor');
    h.apis.roles.set(`pbase0000000001:${viewer.id}`, 'viewer');
  });
  afterAll(async () => { await h?.stop(); await variant.teardown?.(); });

  const get = (path: string, who = editor) => request(h.server).get(path).set(h.as(who));
  const post = (path: string, body: unknown, who = editor) => request(h.server).post(path).set(h.as(who)).send(body as object);
  const patch = (path: string, body: unknown) => request(h.server).patch(path).set(h.as(editor)).send(body as object);
  const del = (path: string, body?: unknown) => request(h.server).delete(path).set(h.as(editor)).send(body as object);

  describe('records', () => {
    it('creates, reads, lists, updates and deletes a record with formatted values', async () => {
      const created = await post(T, {
        Title: 'first', email: 'a@b.io', Count: '3', Price: 9.999, Done: 'true', Due: '2024-02-29', At: '2024-01-31 23:30:00+02:00',
        Status: 'todo', Tags: ['a', 'b'], Files: [{ title: 'x.png', mimetype: 'image/png', size: 3, url: 'https://x/x.png' }], Unknown: 1,
      });
      expect(created.status).toBe(200);
      expect(created.body).toMatchObject({
        Id: 1, Title: 'first', Email: 'a@b.io', Count: 3, Price: 10, Done: true, Due: '2024-02-29', At: '2024-01-31 21:30:00+00:00',
        Status: 'todo', Tags: 'a,b', Files: [{ title: 'x.png', url: 'https://x/x.png' }],
      });
      expect(created.body.CreatedAt).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\+00:00$/);
      expect(created.body).not.toHaveProperty('nc_order');
      expect(created.body).not.toHaveProperty('nc_created_by');
      expect((await get(`${T}/1`)).body.Title).toBe('first');
      const updated = await patch(`${T}/1`, { Count: 4 });
      expect(updated.body).toMatchObject({ Id: 1, Count: 4, Title: 'first' });
      const list = await get(T);
      expect(list.body.pageInfo).toMatchObject({ totalRows: 1, page: 1, pageSize: 25, isFirstPage: true, isLastPage: true });
      expect(list.body.list).toHaveLength(1);
      expect((await get(`${T}/1/exist`)).body).toBe(true);
      expect((await del(`${T}/1`)).body).toBe(1);
      const missing = await del(`${T}/1`);
      expect(missing.status).toBe(404);
      expect(missing.body).toMatchObject({ error: 'ERR_RECORD_NOT_FOUND', msg: "Record '1' not found" });
      expect((await del(`${T}/999`)).status).toBe(404);
      expect((await del(`${T}/not-a-number`)).status).toBe(404);
      expect((await get(`${T}/1`)).status).toBe(404);
      expect((await get(`${T}/1/exist`)).body).toBe(false);
    });

    it('lists with where, sort, fields, limit/offset; find-one and count', async () => {
      await post('/api/v1/db/data/bulk/noco/pbase0000000001/tasks', [
        { Title: 'b', Count: 2, Done: true }, { Title: 'a', Count: 1 }, { Title: 'c', Count: 3, Done: true },
      ]);
      const res = await get(`${T}?where=(Count,gt,1)&sort=-Count&fields=Title&limit=1&offset=1`);
      expect(res.status).toBe(200);
      expect(res.body.list).toEqual([{ Id: expect.any(Number), Title: 'b' }]);
      expect(res.body.pageInfo).toMatchObject({ totalRows: 2, page: 2, pageSize: 1, isLastPage: true });
      expect((await get(`${T}/count?where=(Title,like,b)`)).body).toEqual({ count: 1 });
      const none = await get(`${T}/find-one?where=(Title,eq,zzz)`);
      expect([none.status, none.text]).toEqual([200, 'null']);
      expect((await get(`${T}/find-one?sort=Count`)).body.Title).toBe('a');
      const view = await get(`${T}/views/Done only`);
      expect(view.body.list.map((r: { Title: string }) => r.Title)).toEqual(['c', 'b']);
      expect(view.body.list[0]).not.toHaveProperty('Email');
    });

    it('refuses bad input with 4xx bodies naming the column', async () => {
      expect((await post(T, { Count: 1 })).body).toMatchObject({ error: 'ERR_REQUIRED_FIELD_MISSING', message: "Field 'Title' is required" });
      expect((await post(T, { Title: 'x', Count: 'abc' })).body).toMatchObject({ error: 'ERR_INVALID_VALUE_FOR_FIELD' });
      const select = await post(T, { Title: 'x', Status: 'nope' });
      expect(select.status).toBe(400);
      expect(select.body.message).toContain("'todo', 'done'");
      expect((await post(T, { Title: 'x', Id: 99 })).status).toBe(400);
      expect((await post(T, { Title: 'x', CreatedAt: '2020-01-01' })).status).toBe(400);
      await post(T, { Title: 'u1', Code: 'X1' });
      const dup = await post(T, { Title: 'u2', Code: 'X1' });
      expect(dup.status).toBe(400);
      expect(dup.body.error).toBe('ERR_FIELD_UNIQUE_CONSTRAINT_VIOLATION');
      expect(dup.body.message).toContain('Code');
      for (const q of ["where=(Title,eq,x' or '1'='1)", 'sort=-id,(select 1)', 'fields=1;drop table', 'where=((Title,eq,a)', 'where=(Nope,eq,1)', `where=${'('.repeat(1000)}(Title,eq,a)${')'.repeat(1000)}`, `where=(Count,in,${Array.from({ length: 10000 }, (_, i) => i).join(',')})`]) {
        const res = await get(`${T}?${q}`);
        expect(res.status).toBeGreaterThanOrEqual(200);
        expect(res.status).toBeLessThan(500);
      }
      for (const limit of ['-1', 'abc', '1e9', '1.5']) expect((await get(`${T}?limit=${limit}`)).status).toBe(200);
      expect((await get(`${T}?offset=100000`)).body.list).toEqual([]);
      expect((await get(`${T}/1;drop table`)).status).toBe(404);
      expect((await get('/api/v1/db/data/noco/pbase0000000001/nope')).status).toBe(404);
      expect((await post(T, { Title: 'v' }, viewer)).status).toBe(403);
      expect((await get(T, viewer)).status).toBe(200);
    });

    it('caches table contexts and drops them on meta events', async () => {
      await get(T);
      const before = h.apis.metaCalls;
      await get(T);
      await get(`${T}/count`);
      expect(h.apis.metaCalls).toBe(before);
      await h.shared.bus.publish([{ topic: 'meta', key: 'mtasks00000000', type: 'meta.column.created', payload: new Uint8Array() }]);
      for (let i = 0; i < 50 && h.apis.metaCalls === before; i++) {
        await get(T);
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(h.apis.metaCalls).toBe(before + 1);
    });
  });
}
