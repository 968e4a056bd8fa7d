import request from 'supertest';
import knexFactory from 'knex';
import { hooksInternal } from '@tabula/contracts';
import { signIdentity } from '@tabula/auth';
import { startDataHarness, type DataHarness } from './data-app.harness';
import { createTasksTable, tasksContext } from './table.fixture';

/**
 * `records.before.*` events are advisory and consumed only by hooks' before
 * hooks: a write publishes one unless this process knows (from hooks' last
 * dispatch-sync answer, `before_hooks: false`) that the table has none. A hook
 * change drops that knowledge (the direct sync-hooks-changed call, or the
 * hooks.hook.* event), so the next write publishes again.
 */
const editor = { id: 'useditor0000001', email: 'ed@example.com' };
const T = '/api/v1/db/data/noco/pbase0000000001/Tasks';

let h: DataHarness;
let beforeHooks = false;
const dispatchCalls: string[] = [];

beforeAll(async () => {
  h = await startDataHarness();
  const db = knexFactory({ client: 'pg', connection: h.database.url });
  try { await createTasksTable(db, 'pbase'); } finally { await db.destroy(); }
  h.apis.tables.set('tasks', tasksContext('pbase'));
  h.apis.roles.set(`pbase0000000001:${editor.id}`, 'editor');
  h.apis.implement(hooksInternal, {
    dispatchSync: ({ body }) => {
      dispatchCalls.push(body.type);
      return { sync_hooks: false, before_hooks: beforeHooks, deliveries: [] };
    },
  });
});
afterAll(async () => { await h?.stop(); });

const insert = (title: string) => request(h.server).post(T).set(h.as(editor)).send({ Title: title });
/**
 * Types of the records events published since `from`, once `afters` after
 * events arrived (the relay publishes them after the commit). A before event
 * is published before its write even starts, and the memory bus keeps a
 * group's order, so one would already be in the list ahead of its after event.
 */
const typesSince = async (from: number, afters: number) => {
  const types = () => h.events.slice(from).map((m) => m.type);
  for (let i = 0; i < 200 && types().filter((t) => t.startsWith('records.after.')).length < afters; i++) await new Promise((r) => setTimeout(r, 25));
  return types();
};
const tableId = () => tasksContext('pbase').table.id;
const hooksChanged = () => request(h.server).post(`/internal/tables/${tableId()}/sync-hooks-changed`)
  .set({ 'x-tabula-identity': signIdentity({ kind: 'service', id: 'hooks', roles: [] }, 'internal-secret-for-the-data-service-tests-0123456789') });

describe('records.before events only while the table may have a before hook', () => {
  it('publishes before the first write, none once hooks said "no before hook", again after a hook change', async () => {
    let from = h.events.length;
    expect((await insert('a')).status).toBe(200);
    // Unknown: published.
    expect(await typesSince(from, 1)).toEqual(['records.before.insert', 'records.after.insert']);
    expect(dispatchCalls).toEqual(['records.after.insert']);

    from = h.events.length;
    expect((await insert('b')).status).toBe(200);
    expect((await insert('c')).status).toBe(200);
    expect(await typesSince(from, 2)).toEqual(['records.after.insert', 'records.after.insert']);

    // A before hook is created: hooks tells data before answering; the next write publishes its before event.
    beforeHooks = true;
    expect((await hooksChanged()).status).toBe(200);
    from = h.events.length;
    expect((await insert('d')).status).toBe(200);
    expect((await insert('e')).status).toBe(200);
    // (d's after event, published by the relay after its commit, may come after e's before event)
    expect((await typesSince(from, 2)).sort()).toEqual(['records.after.insert', 'records.after.insert', 'records.before.insert', 'records.before.insert']);
  });
});
