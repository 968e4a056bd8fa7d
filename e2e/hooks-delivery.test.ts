import { startTestStack, type TestStack } from '@tabula/testing';
import { allServices } from '../scripts/services';
import { Webhook } from 'standardwebhooks';
import { Sink, call, setupTable } from './hooks-e2e.helpers';

let stack: TestStack;
const sink = new Sink();
let t: Awaited<ReturnType<typeof setupTable>>;
const secrets = new Map<string, string>();

const api = (method: string, path: string, body?: unknown) => call(stack.url, t.token, method, path, body);
const data = `/api/v1/db/data/noco`;
const bulk = `/api/v1/db/data/bulk/noco`;

async function hook(label: string, version: string, operation: string | string[], extra: Record<string, unknown> = {}) {
  const res = await api('POST', `/api/v1/db/meta/tables/${t.tableId}/hooks`, {
    title: label, event: 'after', operation, version, retry_interval: 100,
    notification: { type: 'URL', payload: { method: 'POST', path: `${sink.url}/${label}` } }, ...extra,
  });
  expect(res.status).toBe(200);
  expect(res.body.secret).toMatch(/^whsec_/);
  secrets.set(`/${label}`, res.body.secret);
  return res.body;
}

/**
 * Waits for `count` calls at a label and checks every signature with an
 * independent Standard Webhooks implementation (the `standardwebhooks`
 * package, not the project's signer), as a receiver would.
 */
async function received(label: string, count: number) {
  const reqs = await sink.waitFor(`/${label}`, count);
  for (const r of reqs) {
    const headers = { 'webhook-id': String(r.headers['webhook-id']), 'webhook-timestamp': String(r.headers['webhook-timestamp']), 'webhook-signature': String(r.headers['webhook-signature']) };
    expect(() => new Webhook(secrets.get(`/${label}`)!).verify(r.body, headers)).not.toThrow();
  }
  return reqs.map((r) => JSON.parse(r.body));
}

beforeAll(async () => {
  await sink.start();
  stack = await startTestStack(allServices, { SVC_ALLOW_LOCAL_HOOKS: 'true', SVC_HOOKS_POLL_MS: '50' });
  t = await setupTable(stack.url, 'hooks-delivery@example.com');
});
afterAll(async () => {
  await stack?.stop();
  await sink.stop();
});

describe('hook delivery end to end', () => {
  it('delivers insert, update, delete and the bulk operations with v1, v2 and v3 payloads, signed', async () => {
    const h1 = await hook('v1-insert', 'v1', 'insert');
    expect(h1).toMatchObject({ active: true, retries: 10, timeout: 60000, version: 'v1', operation: 'insert' });
    await hook('v2-insert', 'v2', 'insert');
    await hook('v2-bulkInsert', 'v2', 'bulkInsert');
    await hook('v2-bulkUpdate', 'v2', 'bulkUpdate');
    await hook('v3-all', 'v3', ['insert', 'update', 'delete']);
    await hook('v1-delete', 'v1', 'delete');
    const one = await api('POST', `${data}/${t.baseId}/Items`, { Name: 'one', Qty: 1 });
    expect(one.status).toBe(200);
    expect((await received('v1-insert', 1))[0]).toMatchObject({ Id: 1, Name: 'one', Qty: 1 });
    const [v2] = await received('v2-insert', 1);
    expect(v2).toMatchObject({ type: 'records.after.insert', base_id: t.baseId, version: 'v2', data: { table_id: t.tableId, table_name: 'Items', rows: [{ Id: 1, Name: 'one' }] } });
    expect(v2.data.rows[0]).not.toHaveProperty('nc_order');
    await api('PATCH', `${data}/${t.baseId}/Items/1`, { Qty: 2 });
    await api('POST', `${bulk}/${t.baseId}/Items`, [{ Name: 'a' }, { Name: 'b' }]);
    const [bi] = await received('v2-bulkInsert', 1);
    expect(bi).toMatchObject({ type: 'records.after.bulkInsert', data: { rows_inserted: 2 } });
    await api('PATCH', `${bulk}/${t.baseId}/Items`, [{ Id: 2, Qty: 5 }, { Id: 3, Qty: 6 }]);
    await api('PATCH', `${bulk}/${t.baseId}/Items/all?where=(Qty,gt,4)`, { Done: true });
    const bu = await received('v2-bulkUpdate', 2);
    expect(bu.map((p) => p.type)).toEqual(['records.after.bulkUpdate', 'records.after.bulkUpdate']);
    expect(bu[0].data.previous_rows).toHaveLength(2);
    await api('DELETE', `${data}/${t.baseId}/Items/1`);
    expect((await received('v1-delete', 1))[0]).toMatchObject({ Id: 1 });
    await api('DELETE', `${bulk}/${t.baseId}/Items`, [{ Id: 2 }]);
    await api('DELETE', `${bulk}/${t.baseId}/Items/all?where=(Id,eq,3)`);
    const v3 = await received('v3-all', 8);
    expect(v3.map((p) => p.type).sort()).toEqual([
      ...Array(3).fill('records.after.delete'), ...Array(2).fill('records.after.insert'), ...Array(3).fill('records.after.update'),
    ]);
    const single = v3.find((p) => p.type === 'records.after.update' && p.data.rows.length === 1 && p.data.rows[0].Id === 1);
    expect(single).toMatchObject({ version: 'v3', data: { previous_rows: [{ Qty: 1 }], rows: [{ Qty: 2 }] } });
  });

  it('retries 500, 500, 200: three logged attempts, one success, one stable webhook-id', async () => {
    const h = await hook('flaky', 'v2', 'insert', { retries: 3 });
    sink.script('/flaky', [500, 500, 200]);
    await api('POST', `${data}/${t.baseId}/Items`, { Name: 'flaky' });
    const reqs = await sink.waitFor('/flaky', 3);
    expect(new Set(reqs.map((r) => r.headers['webhook-id'])).size).toBe(1);
    let logs = await api('GET', `/api/v1/db/meta/hooks/${h.id}/logs`);
    for (let i = 0; i < 50 && logs.body.list.length < 3; i++) {
      await new Promise((r) => setTimeout(r, 50));
      logs = await api('GET', `/api/v1/db/meta/hooks/${h.id}/logs`);
    }
    expect(logs.body.pageInfo).toMatchObject({ totalRows: 3, page: 1 });
    expect(logs.body.list.map((l: any) => l.attempt)).toEqual([3, 2, 1]);
    expect(logs.body.list.map((l: any) => l.response.status)).toEqual([200, 500, 500]);
    expect(logs.body.list[0]).toMatchObject({ fk_hook_id: h.id, event: 'after', operation: 'insert', error_message: null, test_call: false, triggered_by: 'hooks-delivery@example.com' });
    expect(logs.body.list[1].error_message).toBe('HTTP 500');
    const page = await api('GET', `/api/v1/db/meta/hooks/${h.id}/logs?page=2&pageSize=2`);
    expect(page.body.list).toHaveLength(1);
    await api('DELETE', `/api/v1/db/meta/hooks/${h.id}`);
  });

  it('respects trigger_fields and conditions (transition into the condition on update)', async () => {
    const qty = t.columns.find((c) => c.title === 'Qty')!.id;
    await hook('trig', 'v2', 'update', { trigger_field: true, trigger_fields: [qty] });
    const cond = await hook('cond', 'v2', 'update');
    const f = await api('POST', `/api/v1/db/meta/hooks/${cond.id}/filters`, { fk_column_id: qty, comparison_op: 'gt', value: '10' });
    expect(f.status).toBe(200);
    expect((await api('GET', `/api/v1/db/meta/hooks/${cond.id}/filters`)).body.list).toHaveLength(1);
    const row = (await api('POST', `${data}/${t.baseId}/Items`, { Name: 'c', Qty: 1 })).body;
    await api('PATCH', `${data}/${t.baseId}/Items/${row.Id}`, { Name: 'renamed' });
    await api('PATCH', `${data}/${t.baseId}/Items/${row.Id}`, { Qty: 20 });
    await api('PATCH', `${data}/${t.baseId}/Items/${row.Id}`, { Qty: 30 });
    const trig = await received('trig', 2);
    expect(trig.map((p) => p.data.rows[0].Qty)).toEqual([20, 30]);
    const c = await received('cond', 1);
    expect(c[0].data.rows[0].Qty).toBe(20);
    await new Promise((r) => setTimeout(r, 500));
    expect(sink.at('/trig')).toHaveLength(2);
    expect(sink.at('/cond')).toHaveLength(1);
  });

  it('manual trigger, test call and sample payload', async () => {
    const h = await hook('manual', 'v2', 'trigger', { event: 'manual' });
    const row = (await api('POST', `${data}/${t.baseId}/Items`, { Name: 'm' })).body;
    expect((await api('POST', `/api/v2/meta/hooks/${h.id}/trigger/${row.Id}`)).status).toBe(200);
    expect((await received('manual', 1))[0]).toMatchObject({ type: 'records.manual.trigger', data: { rows: [{ Name: 'm' }] } });
    expect((await api('POST', `/api/v2/meta/hooks/${h.id}/trigger/9999`)).status).toBe(404);
    const sample = await api('GET', `/api/v1/db/meta/tables/${t.tableId}/hooks/samplePayload/after/insert/v2?includeUser=true`);
    expect(sample.body).toMatchObject({ type: 'records.after.insert', data: { table_name: 'Items', rows: [{ Name: 'Sample Text', Qty: 123 }] }, user: { email: 'hooks-delivery@example.com' } });
    const config = { title: 'T', event: 'after', operation: 'insert', version: 'v2', notification: { type: 'URL', payload: { method: 'POST', path: `${sink.url}/test-ok`, body: '{"t":"{{ data.table_name }}","u":"{{ user.email }}"}' } } };
    const ok = await api('POST', `/api/v1/db/meta/tables/${t.tableId}/hooks/test`, { hook: config, payload: sample.body });
    expect(ok.body).toEqual({ msg: 'The hook has been tested successfully' });
    expect(JSON.parse(sink.at('/test-ok')[0].body)).toEqual({ t: 'Items', u: 'hooks-delivery@example.com' });
    sink.script('/test-bad', [500]);
    const bad = await api('POST', `/api/v1/db/meta/tables/${t.tableId}/hooks/test`, { hook: { ...config, notification: { payload: { path: `${sink.url}/test-bad` } } }, payload: {} });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: 'ERR_WEBHOOK_ERROR' });
  });

  it('JSON bodies with every spec template variable, ending in `}}}` or written as triple-stash, are accepted and render', async () => {
    const bodies: Record<string, string> = {
      'tpl-data': '{"payload":{{ json data }}}',
      'tpl-rows': '{"rows":{{ json data.rows }}}',
      'tpl-rows-triple': '{"rows":{{{ json data.rows }}}}',
      'tpl-nested': '{"a":{"rows":{{ json data.rows }}}}',
      'tpl-table': '{"table":{"name":"{{ data.table_name }}"}}',
      'tpl-user': '{"user":{"email":"{{ user.email }}"}}',
      'tpl-user-triple': '{"email":{{{ json user.email }}}}',
    };
    for (const [label, body] of Object.entries(bodies)) {
      await hook(label, 'v2', 'insert', { notification: { type: 'URL', payload: { method: 'POST', path: `${sink.url}/${label}`, body } } });
    }
    await api('POST', `${data}/${t.baseId}/Items`, { Name: 'templated', Qty: 7 });
    const [whole] = await received('tpl-data', 1);
    expect(whole.payload).toMatchObject({ type: 'records.after.insert', base_id: t.baseId, data: { table_name: 'Items', rows: [{ Name: 'templated', Qty: 7 }] } });
    expect(whole.payload).not.toHaveProperty('rows');
    for (const label of ['tpl-rows', 'tpl-rows-triple']) expect((await received(label, 1))[0]).toEqual({ rows: [expect.objectContaining({ Name: 'templated', Qty: 7 })] });
    expect((await received('tpl-nested', 1))[0]).toEqual({ a: { rows: [expect.objectContaining({ Name: 'templated' })] } });
    expect((await received('tpl-table', 1))[0]).toEqual({ table: { name: 'Items' } });
    expect((await received('tpl-user', 1))[0]).toEqual({ user: { email: 'hooks-delivery@example.com' } });
    expect((await received('tpl-user-triple', 1))[0]).toEqual({ email: 'hooks-delivery@example.com' });
  });

  it('410 Gone stops retries and deactivates the hook; PATCH rotates the secret', async () => {
    const h = await hook('gone', 'v2', 'insert');
    sink.script('/gone', [410]);
    await api('POST', `${data}/${t.baseId}/Items`, { Name: 'g' });
    await sink.waitFor('/gone', 1);
    let list = await api('GET', `/api/v1/db/meta/tables/${t.tableId}/hooks`);
    for (let i = 0; i < 50 && list.body.list.find((x: any) => x.id === h.id).active; i++) {
      await new Promise((r) => setTimeout(r, 50));
      list = await api('GET', `/api/v1/db/meta/tables/${t.tableId}/hooks`);
    }
    expect(list.body.list.find((x: any) => x.id === h.id).active).toBe(false);
    expect(list.body.pageInfo.totalRows).toBe(list.body.list.length);
    expect(list.body.list[0]).not.toHaveProperty('secret');
    const rotated = await api('PATCH', `/api/v1/db/meta/hooks/${h.id}`, { rotate_secret: true, active: true });
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(h.secret);
  });

  it('async: false hooks are delivered before the record API answers', async () => {
    // A write first: data now remembers "no sync hook on this table"; creating one must drop that at once (hooks.hook.created).
    expect((await api('POST', `${data}/${t.baseId}/Items`, { Name: 'before the sync hook' })).status).toBe(200);
    await hook('sync', 'v2', 'insert', { async: false });
    sink.delayMs = 200;
    try {
      const res = await api('POST', `${data}/${t.baseId}/Items`, { Name: 'synchronous' });
      expect(res.status).toBe(200);
      const calls = sink.at('/sync');
      expect(calls).toHaveLength(1);
      expect(JSON.parse(calls[0].body).data.rows[0].Name).toBe('synchronous');
    } finally {
      sink.delayMs = 0;
    }
    await new Promise((r) => setTimeout(r, 500));
    expect(new Set(sink.at('/sync').map((r) => r.headers['webhook-id'])).size).toBe(1);
  });

  it('duplicating a table or a base copies its hooks (filters mapped, same secret) unless excludeHooks, and the copies fire', async () => {
    const as = (method: string, path: string, body?: unknown) => call(stack.url, t.token, method, path, body);
    const baseId = (await as('POST', '/api/v1/db/meta/projects', { title: 'DupHooks' })).body.id;
    const table = (await as('POST', `/api/v1/db/meta/projects/${baseId}/tables`, { title: 'Items', columns: [{ title: 'Name', uidt: 'SingleLineText' }, { title: 'Qty', uidt: 'Number' }] })).body;
    const d = { baseId, tableId: table.id as string };
    const qty = table.columns.find((c: { title: string }) => c.title === 'Qty');
    const created = await as('POST', `/api/v1/db/meta/tables/${d.tableId}/hooks`, {
      title: 'dup-src', event: 'after', operation: 'insert', version: 'v2', retry_interval: 100, trigger_field: true, trigger_fields: [qty.id],
      notification: { type: 'URL', payload: { method: 'POST', path: `${sink.url}/dup` } },
    });
    expect(created.status).toBe(200);
    secrets.set('/dup', created.body.secret);
    expect((await as('POST', `/api/v1/db/meta/hooks/${created.body.id}/filters`, { fk_column_id: qty.id, comparison_op: 'gt', value: '5' })).status).toBe(200);

    const tableCopy = (await as('POST', `/api/v1/db/meta/duplicate/${d.baseId}/table/${d.tableId}`, {})).body;
    const copyTable = (await as('GET', `/api/v1/db/meta/tables/${tableCopy.id}`)).body;
    const copyQty = copyTable.columns.find((c: { title: string }) => c.title === 'Qty');
    const [copied] = (await as('GET', `/api/v1/db/meta/tables/${tableCopy.id}/hooks`)).body.list;
    expect(copied).toMatchObject({ title: 'dup-src', fk_model_id: tableCopy.id, base_id: d.baseId, trigger_fields: [copyQty.id] });
    expect(copied.id).not.toBe(created.body.id);
    expect((await as('GET', `/api/v1/db/meta/hooks/${copied.id}/filters`)).body.list).toMatchObject([{ fk_column_id: copyQty.id, comparison_op: 'gt', value: '5' }]);
    await as('POST', `${data}/${d.baseId}/${copyTable.title}`, { Name: 'small', Qty: 1 });
    await as('POST', `${data}/${d.baseId}/${copyTable.title}`, { Name: 'big', Qty: 9 });
    const [fired] = await received('dup', 1);
    expect(fired).toMatchObject({ data: { table_id: tableCopy.id, rows: [{ Name: 'big' }] } });

    const baseCopy = (await as('POST', `/api/v1/db/meta/duplicate/${d.baseId}`, {})).body;
    const bare = (await as('POST', `/api/v1/db/meta/duplicate/${d.baseId}`, { options: { excludeHooks: true } })).body;
    const bareTable = (await as('POST', `/api/v1/db/meta/duplicate/${d.baseId}/table/${d.tableId}`, { options: { excludeHooks: true } })).body;
    const hooksOfBase = async (baseId: string) => {
      const tables = (await as('GET', `/api/v1/db/meta/projects/${baseId}/tables`)).body.list;
      const lists = await Promise.all(tables.map(async (t: { id: string }) => (await as('GET', `/api/v1/db/meta/tables/${t.id}/hooks`)).body.list));
      return lists.flat().map((x: { title: string; base_id: string }) => [x.title, x.base_id]);
    };
    expect((await hooksOfBase(baseCopy.id)).sort()).toEqual([['dup-src', baseCopy.id], ['dup-src', baseCopy.id]]);
    expect(await hooksOfBase(bare.id)).toEqual([]);
    expect((await as('GET', `/api/v1/db/meta/tables/${bareTable.id}/hooks`)).body.list).toEqual([]);
  });

  it('a before hook created after writes found none is delivered for the very next write (records.before.insert)', async () => {
    // A write first: data now knows "no before hook on this table" and publishes no before events; creating one must drop that at once.
    expect((await api('POST', `${data}/${t.baseId}/Items`, { Name: 'no before hook yet' })).status).toBe(200);
    await hook('before-insert', 'v2', 'insert', { event: 'before' });
    expect((await api('POST', `${data}/${t.baseId}/Items`, { Name: 'seen before' })).status).toBe(200);
    const [payload] = await received('before-insert', 1);
    expect(payload).toMatchObject({ type: 'records.before.insert', data: { table_id: t.tableId } });
    await new Promise((r) => setTimeout(r, 300));
    expect(sink.at('/before-insert')).toHaveLength(1);
  });
});
