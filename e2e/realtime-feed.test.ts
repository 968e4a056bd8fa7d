import knex, { type Knex } from 'knex';
import { col, type TestApi, type TestStack, type TestTable, type TestUser } from '@tabula/testing';
import { SseClient, countBy, startRealtimeStack } from './realtime.helpers';

let stack: TestStack;
let api: TestApi;
let db: Knex;
let root: TestUser;
let table: TestTable;

const auth = (user: { token: string }) => ({ 'xc-auth': user.token });

beforeAll(async () => {
  ({ stack, api } = await startRealtimeStack({ SVC_FEED_MAX_STREAMS_PER_PRINCIPAL: '4', SVC_FEED_HEARTBEAT_MS: '300' }));
  db = knex({ client: 'pg', connection: stack.database.url, pool: { min: 0, max: 2 } });
  root = await api.signUp('root');
  table = await api.baseWithTable(root, { title: 'Items', columns: [col.id(), col.text('Title'), col.number('Num')] });
}, 120_000);
afterAll(async () => { await db?.destroy(); await stack?.stop(); });

const recordsPath = (t: { baseId: string; id: string }) => `/api/v1/db/data/noco/${t.baseId}/${t.id}`;

describe('live feed over SSE', () => {
  it('streams inserts, updates and deletes filtered by where and fields, with previous rows, and pings', async () => {
    const where = encodeURIComponent('(Num,gt,5)');
    const sse = await SseClient.open(stack.url, `/api/v1/events/tables/${table.id}?where=${where}&fields=Title`, auth(root));
    expect(sse.status).toBe(200);
    const low = await api.ok('POST', recordsPath(table), { token: root.token, body: { Title: 'low', Num: 1 } }, 'insert');
    const high = await api.ok('POST', recordsPath(table), { token: root.token, body: { Title: 'high', Num: 9 } }, 'insert');
    await api.ok('POST', `/api/v1/db/data/bulk/noco/${table.baseId}/${table.id}`, { token: root.token, body: [{ Title: 'b1', Num: 7 }, { Title: 'b2', Num: 2 }, { Title: 'b3', Num: 8 }] }, 'bulk');
    await api.ok('PATCH', `${recordsPath(table)}/${high.body.Id}`, { token: root.token, body: { Title: 'higher' } }, 'update');
    await api.ok('PATCH', `${recordsPath(table)}/${low.body.Id}`, { token: root.token, body: { Title: 'still low' } }, 'update low');
    await api.ok('DELETE', `${recordsPath(table)}/${high.body.Id}`, { token: root.token }, 'delete');
    await sse.until(() => sse.of('records.after.delete').length === 1 && sse.pings > 0, 10_000, 'the delete and a ping');
    const inserts = sse.of('records.after.insert');
    expect(inserts.map((e) => e.data.rows)).toEqual([[{ Title: 'high' }], [{ Title: 'b1' }, { Title: 'b3' }]]);
    for (const e of sse.events) {
      expect(e.id).toBe(e.data.id);
      expect(e.data).toMatchObject({ type: e.event, base_id: table.baseId, table_id: table.id, table_name: 'Items', actor: { id: root.id, email: root.email } });
      expect(new Date(e.data.at).toISOString()).toBe(e.data.at);
    }
    const updates = sse.of('records.after.update');
    expect(updates.map((e) => [e.data.rows, e.data.previous_rows])).toEqual([[[{ Title: 'higher' }], [{ Title: 'high' }]]]);
    expect(sse.of('records.after.delete')[0].data.previous_rows).toEqual([{ Title: 'higher' }]);
    // ids are increasing cursors
    const ids = sse.events.map((e) => Number(e.id));
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    sse.close();
  });

  it('resumes with Last-Event-ID / last_event_id: every event once across the disconnect, replay and live', async () => {
    const t = await api.createTable(root, table.baseId, { title: 'Resume', columns: [col.id(), col.text('Title')] });
    const first = await SseClient.open(stack.url, `/api/v1/events/tables/${t.id}`, auth(root));
    for (let i = 0; i < 5; i += 1) await api.ok('POST', recordsPath(t), { token: root.token, body: { Title: `a${i}` } }, 'insert');
    await first.until(() => first.events.length === 5, 10_000, '5 events');
    first.close();
    const lastId = first.events[4].id as string;
    for (let i = 0; i < 5; i += 1) await api.ok('POST', recordsPath(t), { token: root.token, body: { Title: `b${i}` } }, 'insert');
    // inserts racing the replay: the seam between replay and live
    const racing = (async () => { for (let i = 0; i < 10; i += 1) await api.ok('POST', recordsPath(t), { token: root.token, body: { Title: `c${i}` } }, 'insert'); })();
    const second = await SseClient.open(stack.url, `/api/v1/events/tables/${t.id}`, { ...auth(root), 'last-event-id': lastId });
    await racing;
    await second.until(() => second.events.length >= 15, 10_000, '15 events');
    const viaQuery = await SseClient.open(stack.url, `/api/v1/events/tables/${t.id}?last_event_id=${lastId}`, auth(root));
    await viaQuery.until(() => viaQuery.events.length >= 15, 10_000, '15 replayed events');
    await api.ok('POST', recordsPath(t), { token: root.token, body: { Title: 'd0' } }, 'insert');
    await second.until(() => second.events.length >= 16, 10_000, 'the live event after the replay');
    await viaQuery.until(() => viaQuery.events.length >= 16, 10_000, 'the live event after the replay');
    const titles = [...first.events, ...second.events].map((e) => e.data.rows[0].Title as string);
    const counts = countBy(titles);
    const expected = [...[0, 1, 2, 3, 4].map((i) => `a${i}`), ...[0, 1, 2, 3, 4].map((i) => `b${i}`), ...Array.from({ length: 10 }, (_, i) => `c${i}`), 'd0'];
    for (const title of expected) expect([title, counts.get(title)]).toEqual([title, 1]);
    expect(counts.size).toBe(expected.length);
    const ids = countBy([...first.events, ...second.events].map((e) => e.id));
    expect([...ids.values()].every((n) => n === 1)).toBe(true);
    expect(viaQuery.events.map((e) => e.id)).toEqual(second.events.map((e) => e.id));
    second.close();
    viaQuery.close();
  });

  it('names the actor: { id, email } for a session\'s write, { token_id } for an API token\'s (records and meta events)', async () => {
    const t = await api.createTable(root, table.baseId, { title: 'Actors', columns: [col.id(), col.text('Title')] });
    const created = await api.ok('POST', '/api/v1/tokens', { token: root.token, body: { description: 'actor' } }, 'token');
    const apiToken = String(created.body.token);
    const sse = await SseClient.open(stack.url, `/api/v1/events/bases/${table.baseId}`, auth(root));
    await api.ok('POST', recordsPath(t), { token: root.token, body: { Title: 'by session' } }, 'insert');
    await api.ok('POST', recordsPath(t), { apiToken, body: { Title: 'by token' } }, 'insert');
    await api.ok('POST', `/api/v1/db/meta/tables/${t.id}/columns`, { apiToken, body: { title: 'Extra', column_name: 'extra', uidt: 'SingleLineText' } }, 'add column');
    await sse.until(() => sse.of('records.after.insert').length === 2 && sse.of('meta.column.created').length === 1, 10_000, 'two inserts and a column');
    expect(sse.of('records.after.insert').map((e) => [e.data.rows[0].Title, e.data.actor])).toEqual([
      ['by session', { id: root.id, email: root.email }],
      ['by token', { token_id: created.body.id }],
    ]);
    expect(sse.of('meta.column.created')[0].data.actor).toEqual({ token_id: created.body.id });
    sse.close();
  });

  it('a base stream carries every table\'s records and table and column changes', async () => {
    const base = await api.createBase(root);
    const sse = await SseClient.open(stack.url, `/api/v1/events/bases/${base.id}`, auth(root));
    expect(sse.status).toBe(200);
    const t1 = await api.createTable(root, base.id, { title: 'One', columns: [col.id(), col.text('Title')] });
    const t2 = await api.createTable(root, base.id, { title: 'Two', columns: [col.id(), col.text('Title')] });
    await api.ok('POST', `/api/v1/db/meta/tables/${t1.id}/columns`, { token: root.token, body: { title: 'Extra', column_name: 'extra', uidt: 'SingleLineText' } }, 'add column');
    await api.ok('POST', recordsPath(t1), { token: root.token, body: { Title: 'x' } }, 'insert');
    await api.ok('POST', recordsPath(t2), { token: root.token, body: { Title: 'y' } }, 'insert');
    await sse.until(() => sse.of('records.after.insert').length === 2, 10_000, 'two inserts');
    expect(sse.of('meta.table.created').map((e) => e.data.table_id).sort()).toEqual([t1.id, t2.id].sort());
    expect(sse.of('meta.column.created').map((e) => [e.data.table_id, e.data.column_name])).toEqual([[t1.id, 'Extra']]);
    expect(sse.of('records.after.insert').map((e) => [e.data.table_id, e.data.rows[0].Title])).toEqual([[t1.id, 'x'], [t2.id, 'y']]);
    sse.close();
  });

  it('another tenant\'s table or base, or another base\'s token, answers 404 like a missing one; viewers may stream', async () => {
    const stranger = await api.signUp('stranger');
    const ownBase = await api.createBase(root);
    const otherToken = await api.baseToken(root, ownBase.id);
    for (const [path, code] of [[`/api/v1/events/tables/${table.id}`, 'ERR_TABLE_NOT_FOUND'], [`/api/v1/events/bases/${table.baseId}`, 'ERR_BASE_NOT_FOUND']]) {
      const missing = await SseClient.open(stack.url, path.replace(/[^/]+$/, 'md_nothere00000'), auth(stranger));
      const foreign = await SseClient.open(stack.url, path, auth(stranger));
      const wrongToken = await SseClient.open(stack.url, path, { 'xc-token': otherToken });
      await Promise.all([missing, foreign, wrongToken].map((c) => c.until(() => c.ended)));
      expect([foreign.status, wrongToken.status]).toEqual([404, 404]);
      expect(JSON.parse(foreign.body).error).toBe(code);
      expect(JSON.parse(wrongToken.body).error).toBe(code);
      expect(missing.status).toBe(404);
    }
    const viewer = await api.signUp('viewer');
    await api.addMember(root, table.baseId, viewer.email, 'viewer');
    const ok = await SseClient.open(stack.url, `/api/v1/events/tables/${table.id}`, auth(viewer));
    expect(ok.status).toBe(200);
    ok.close();
    const anonymous = await SseClient.open(stack.url, `/api/v1/events/tables/${table.id}`);
    await anonymous.until(() => anonymous.ended);
    expect(anonymous.status).toBe(401);
  });

  it('tickets: single use, bound to their stream, expire; EventSource needs no header', async () => {
    const issued = await api.ok('POST', '/api/v1/events/tickets', { token: root.token, body: { table_id: table.id } }, 'ticket');
    expect(issued.body).toEqual({ ticket: expect.stringMatching(/^tk_/), expires_at: expect.any(String) });
    expect(new Date(issued.body.expires_at).getTime() - Date.now()).toBeLessThanOrEqual(60_000);
    const sse = await SseClient.open(stack.url, `/api/v1/events/tables/${table.id}?ticket=${issued.body.ticket}`);
    expect(sse.status).toBe(200);
    await api.ok('POST', recordsPath(table), { token: root.token, body: { Title: 'by ticket', Num: 1 } }, 'insert');
    await sse.until(() => sse.events.length === 1);
    expect(sse.events[0].data.rows[0].Title).toBe('by ticket');
    const again = await SseClient.open(stack.url, `/api/v1/events/tables/${table.id}?ticket=${issued.body.ticket}`);
    await again.until(() => again.ended);
    expect(again.status).toBe(401);
    sse.close();
    const forTable = await api.ok('POST', '/api/v1/events/tickets', { token: root.token, body: { table_id: table.id } }, 'ticket');
    const elsewhere = await SseClient.open(stack.url, `/api/v1/events/bases/${table.baseId}?ticket=${forTable.body.ticket}`);
    await elsewhere.until(() => elsewhere.ended);
    expect(elsewhere.status).toBe(401);
    const expiring = await api.ok('POST', '/api/v1/events/tickets', { token: root.token, body: { base_id: table.baseId } }, 'ticket');
    // 60 s later, as the database sees it
    await db.raw("UPDATE realtime.tickets SET expires_at = now() - interval '1 second' WHERE used_at IS NULL");
    const expired = await SseClient.open(stack.url, `/api/v1/events/bases/${table.baseId}?ticket=${expiring.body.ticket}`);
    await expired.until(() => expired.ended);
    expect(expired.status).toBe(401);
    const stranger = await api.signUp('stranger2');
    const foreign = await api.call('POST', '/api/v1/events/tickets', { token: stranger.token, body: { table_id: table.id } });
    expect(foreign.status).toBe(404);
  });

  it('caps concurrent streams per principal (429 beyond SVC_FEED_MAX_STREAMS_PER_PRINCIPAL)', async () => {
    const user = await api.signUp('capped');
    await api.addMember(root, table.baseId, user.email, 'viewer');
    const open: SseClient[] = [];
    for (let i = 0; i < 4; i += 1) open.push(await SseClient.open(stack.url, `/api/v1/events/tables/${table.id}`, auth(user)));
    expect(open.map((c) => c.status)).toEqual([200, 200, 200, 200]);
    const fifth = await SseClient.open(stack.url, `/api/v1/events/bases/${table.baseId}`, auth(user));
    await fifth.until(() => fifth.ended);
    expect(fifth.status).toBe(429);
    open[0].close();
    await open[0].until(() => open[0].ended);
    let again: SseClient | undefined;
    for (let tries = 0; tries < 50 && again?.status !== 200; tries += 1) {
      again = await SseClient.open(stack.url, `/api/v1/events/tables/${table.id}`, auth(user));
      if (again.status !== 200) await new Promise((r) => setTimeout(r, 50));
    }
    expect(again?.status).toBe(200);
    for (const c of [...open, again!]) c.close();
  });
});
