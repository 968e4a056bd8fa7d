import { startTestStack, type TestStack } from '@tabula/testing';
import { allServices } from '../scripts/services';
import { Sink, call, setupTable } from './hooks-e2e.helpers';

/**
 * The hooks service caches each table's active hooks and filters; every hook
 * change through the API drops the table's entry, so the very next event sees
 * it. Each case warms the cache first (an event delivered with the old state),
 * changes the hook, and checks the next event. A second, unchanged hook on the
 * same table is the witness that the next event was processed: once it got the
 * event, the changed hook's outcome is final (both are planned in one statement).
 */
describe('hooks: cached hooks and filters follow hook changes at once', () => {
  let stack: TestStack;
  const sink = new Sink();
  let t: Awaited<ReturnType<typeof setupTable>>;
  let n = 0;
  const api = (method: string, path: string, body?: unknown) => call(stack.url, t.token, method, path, body);
  const namesAt = (path: string) => sink.at(path).map((r) => (JSON.parse(r.body).data.rows as { Name: string }[])[0].Name);
  /** Inserts a record and waits until the witness hook delivered it. */
  const insert = async (extra: Record<string, unknown> = {}) => {
    const name = `r${n++}`;
    expect((await api('POST', `/api/v1/db/data/noco/${t.baseId}/${t.tableId}`, { Name: name, ...extra })).status).toBe(200);
    const until = Date.now() + 15_000;
    while (!namesAt('/witness').includes(name)) {
      if (Date.now() > until) throw new Error(`witness never got ${name}`);
      await new Promise((r) => setTimeout(r, 10));
    }
    // the changed hook's delivery (if any) was handed to the sender in the same batch: give it the same time to arrive
    await new Promise((r) => setTimeout(r, 150));
    return name;
  };
  const hook = async (label: string, extra: Record<string, unknown> = {}) => {
    const res = await api('POST', `/api/v1/db/meta/tables/${t.tableId}/hooks`, {
      title: label, event: 'after', operation: ['insert'], version: 'v3', notification: { type: 'URL', payload: { method: 'POST', path: `${sink.url}/${label}` } }, ...extra,
    });
    expect(res.status).toBe(200);
    return res.body as { id: string };
  };

  beforeAll(async () => {
    await sink.start();
    stack = await startTestStack(allServices, { SVC_ALLOW_LOCAL_HOOKS: 'true', SVC_HOOKS_POLL_MS: '60000' });
    t = await setupTable(stack.url, 'hooks-cache@example.com');
    await hook('witness');
  }, 60_000);
  afterAll(async () => {
    await stack?.stop();
    await sink.stop();
  });

  it('a new hook fires for the next event', async () => {
    await insert();
    await hook('added');
    const name = await insert();
    expect(namesAt('/added')).toEqual([name]);
  });

  it('an edited hook (new target URL) fires with its new settings for the next event', async () => {
    const h = await hook('before-edit');
    const first = await insert();
    expect((await api('PATCH', `/api/v1/db/meta/hooks/${h.id}`, { notification: { type: 'URL', payload: { method: 'POST', path: `${sink.url}/after-edit` } } })).status).toBe(200);
    const second = await insert();
    expect(namesAt('/before-edit')).toEqual([first]);
    expect(namesAt('/after-edit')).toEqual([second]);
  });

  it('a disabled hook does not fire for the next event, and fires again once re-enabled', async () => {
    const h = await hook('toggled');
    const first = await insert();
    expect((await api('PATCH', `/api/v1/db/meta/hooks/${h.id}`, { active: false })).status).toBe(200);
    await insert();
    expect(namesAt('/toggled')).toEqual([first]);
    expect((await api('PATCH', `/api/v1/db/meta/hooks/${h.id}`, { active: true })).status).toBe(200);
    const third = await insert();
    expect(namesAt('/toggled')).toEqual([first, third]);
  });

  it('a deleted hook does not fire for the next event', async () => {
    const h = await hook('deleted');
    const first = await insert();
    expect((await api('DELETE', `/api/v1/db/meta/hooks/${h.id}`)).status).toBe(200);
    await insert();
    expect(namesAt('/deleted')).toEqual([first]);
  });

  it('a filter added to a hook applies to the next event', async () => {
    const h = await hook('filtered');
    const first = await insert({ Qty: 1 });
    const qty = t.columns.find((c) => c.title === 'Qty')!.id;
    expect((await api('POST', `/api/v1/db/meta/hooks/${h.id}/filters`, { fk_column_id: qty, comparison_op: 'gt', value: '10' })).status).toBe(200);
    await insert({ Qty: 2 });
    const big = await insert({ Qty: 20 });
    expect(namesAt('/filtered')).toEqual([first, big]);
  });
});
