import { col, type TestApi, type TestStack, type TestTable, type TestUser } from '@tabula/testing';
import { WsClient, countBy, startRealtimeStack } from './realtime.helpers';

/**
 * GET /api/v1/events/ws on real sockets through the standalone gateway: many
 * subscriptions on one socket, each authorized like its SSE stream, resumable,
 * capped, revocable, bounded for a slow client.
 */
let stack: TestStack;
let api: TestApi;
let root: TestUser;
let table: TestTable;
let other: TestTable;

beforeAll(async () => {
  ({ stack, api } = await startRealtimeStack({ SVC_FEED_MAX_STREAMS_PER_PRINCIPAL: '3', SVC_FEED_HEARTBEAT_MS: '300', SVC_FEED_BUFFER_BYTES: '65536' }));
  root = await api.signUp('root');
  table = await api.baseWithTable(root, { title: 'Items', columns: [col.id(), col.text('Title'), col.number('Num'), col.longText('Body')] });
  other = await api.createTable(root, table.baseId, { title: 'Other', columns: [col.id(), col.text('Title')] });
}, 120_000);
afterAll(async () => { await stack?.stop(); });

const auth = (user: { token: string }) => ({ 'xc-auth': user.token });
const insert = (t: { baseId: string; id: string }, body: Record<string, unknown>, user = root) =>
  api.ok('POST', `/api/v1/db/data/noco/${t.baseId}/${t.id}`, { token: user.token, body }, 'insert');

describe('live feed over a WebSocket', () => {
  it('two subscriptions on one socket each get their own events (filtered, with fields); unsubscribe stops one', async () => {
    const ws = await WsClient.open(stack.url, '/api/v1/events/ws', auth(root));
    const a = await ws.subscribe({ table_id: table.id, where: '(Num,gt,5)', fields: 'Title' });
    const b = await ws.subscribe({ table_id: other.id });
    expect([a.op, b.op]).toEqual(['subscribed', 'subscribed']);
    expect(a.subscription).not.toBe(b.subscription);
    await insert(table, { Title: 'low', Num: 1 });
    await insert(table, { Title: 'high', Num: 9 });
    await insert(other, { Title: 'o1' });
    await ws.until(() => ws.events(a.subscription).length === 1 && ws.events(b.subscription).length === 1, 10_000, 'one event each');
    const [ea] = ws.events(a.subscription);
    expect(ea).toMatchObject({ op: 'event', type: 'records.after.insert', table_id: table.id, table_name: 'Items', base_id: table.baseId, rows: [{ Title: 'high' }], actor: { id: root.id, email: root.email } });
    expect(ws.events(b.subscription)[0]).toMatchObject({ table_id: other.id, rows: [{ Title: 'o1' }] });
    ws.send({ op: 'unsubscribe', subscription: b.subscription, ref: 'u1' });
    await ws.until(() => ws.messages.some((m) => m.op === 'unsubscribed' && m.ref === 'u1'));
    await insert(other, { Title: 'o2' });
    await insert(table, { Title: 'high2', Num: 7 });
    await ws.until(() => ws.events(a.subscription).length === 2, 10_000, 'the second event of a');
    expect(ws.events(b.subscription).map((e) => e.rows[0].Title)).toEqual(['o1']);
    // a base subscription on the same socket sees every table's records
    const base = await ws.subscribe({ base_id: table.baseId });
    await insert(other, { Title: 'o3' });
    await ws.until(() => ws.events(base.subscription).some((e) => e.rows?.[0]?.Title === 'o3'), 10_000, 'the base event');
    ws.close();
  });

  it('resumes a subscription by last_event_id: every event once across the disconnect (counted per id)', async () => {
    const t = await api.createTable(root, table.baseId, { title: 'WsResume', columns: [col.id(), col.text('Title')] });
    const first = await WsClient.open(stack.url, '/api/v1/events/ws', auth(root));
    const s1 = await first.subscribe({ table_id: t.id });
    for (let i = 0; i < 5; i += 1) await insert(t, { Title: `a${i}` });
    await first.until(() => first.events(s1.subscription).length === 5, 10_000, '5 events');
    first.close();
    const lastId = first.events(s1.subscription)[4].id as string;
    for (let i = 0; i < 5; i += 1) await insert(t, { Title: `b${i}` });
    const racing = (async () => { for (let i = 0; i < 10; i += 1) await insert(t, { Title: `c${i}` }); })();
    const second = await WsClient.open(stack.url, '/api/v1/events/ws', auth(root));
    const s2 = await second.subscribe({ table_id: t.id, last_event_id: lastId });
    await racing;
    await second.until(() => second.events(s2.subscription).length >= 15, 15_000, 'the replay and the live events');
    const all = [...first.events(s1.subscription), ...second.events(s2.subscription)];
    const byId = countBy(all.map((e) => e.id as string));
    expect([...byId.values()].every((n) => n === 1)).toBe(true);
    const titles = countBy(all.map((e) => e.rows[0].Title as string));
    const expected = ['a', 'b', 'c'].flatMap((p) => Array.from({ length: p === 'c' ? 10 : 5 }, (_, i) => `${p}${i}`));
    expect(expected.map((x) => [x, titles.get(x)])).toEqual(expected.map((x) => [x, 1]));
    expect(titles.size).toBe(20);
    second.close();
  });

  it('authenticates by xc-token, Bearer or a single-use ticket; anonymous and plain requests are refused', async () => {
    const token = await api.baseToken(root, table.baseId);
    for (const headers of [{ 'xc-token': token }, { authorization: `Bearer ${root.token}` }] as Record<string, string>[]) {
      const ws = await WsClient.open(stack.url, '/api/v1/events/ws', headers);
      expect((await ws.subscribe({ table_id: table.id })).op).toBe('subscribed');
      ws.close();
    }
    const issued = await api.ok('POST', '/api/v1/events/tickets', { token: root.token, body: { base_id: table.baseId } }, 'ticket');
    const byTicket = await WsClient.open(stack.url, `/api/v1/events/ws?ticket=${issued.body.ticket}`);
    const sub = await byTicket.subscribe({ table_id: table.id });
    await insert(table, { Title: 'by ticket', Num: 1 });
    await byTicket.until(() => byTicket.events(sub.subscription).some((e) => e.rows[0].Title === 'by ticket'));
    byTicket.close();
    const reused = await WsClient.refusal(stack.url, `/api/v1/events/ws?ticket=${issued.body.ticket}`);
    expect([reused.status, reused.body.error]).toEqual([401, 'ERR_AUTHENTICATION_REQUIRED']);
    const anonymous = await WsClient.refusal(stack.url, '/api/v1/events/ws');
    expect(anonymous.status).toBe(401);
    const elsewhere = await WsClient.refusal(stack.url, '/api/v1/events/nope', auth(root));
    expect(elsewhere.status).toBe(404);
    // `?ticket=` stands in for credentials only where the contract says so (auth.ticket)
    expect((await api.call('GET', `/api/v1/db/meta/projects?ticket=${issued.body.ticket}`)).status).toBe(401);
    const plain = await api.call('GET', '/api/v1/events/ws', { token: root.token });
    expect([plain.status, plain.body.error]).toEqual([426, 'ERR_UPGRADE_REQUIRED']);
  });

  it('another tenant\'s table or base, or another base\'s token, is refused like a missing one; bad messages get 400', async () => {
    const stranger = await api.signUp('stranger');
    const ownBase = await api.createBase(root);
    const otherToken = await api.baseToken(root, ownBase.id);
    const ws = await WsClient.open(stack.url, '/api/v1/events/ws', auth(stranger));
    const foreignTable = await ws.subscribe({ table_id: table.id });
    const missingTable = await ws.subscribe({ table_id: 'md_nothere00000' });
    const foreignBase = await ws.subscribe({ base_id: table.baseId });
    expect([foreignTable.op, foreignTable.status, foreignTable.error]).toEqual(['error', 404, 'ERR_TABLE_NOT_FOUND']);
    expect([missingTable.status, missingTable.error]).toEqual([404, 'ERR_TABLE_NOT_FOUND']);
    expect([foreignBase.status, foreignBase.error]).toEqual([404, 'ERR_BASE_NOT_FOUND']);
    const byToken = await WsClient.open(stack.url, '/api/v1/events/ws', { 'xc-token': otherToken });
    expect((await byToken.subscribe({ table_id: table.id })).error).toBe('ERR_TABLE_NOT_FOUND');
    const both = await ws.subscribe({ table_id: table.id, base_id: table.baseId });
    expect([both.status, both.error]).toEqual([400, 'ERR_INVALID_REQUEST_BODY']);
    ws.ws.send('not json');
    await ws.until(() => ws.messages.some((m) => m.op === 'error' && /JSON/.test(m.message)));
    const unknown = await ws.subscribe({ table_id: table.id, where: '(Nope,eq,1)' });
    expect(unknown.op).toBe('error');
    expect(unknown.status).toBeGreaterThanOrEqual(400);
    expect(unknown.status).toBeLessThan(500);
    expect(ws.messages.filter((m) => m.op === 'event')).toEqual([]);
    ws.close();
    byToken.close();
  });

  it('counts subscriptions against the per-principal cap (429 beyond), across sockets', async () => {
    const user = await api.signUp('capped');
    await api.addMember(root, table.baseId, user.email, 'viewer');
    const one = await WsClient.open(stack.url, '/api/v1/events/ws', auth(user));
    const two = await WsClient.open(stack.url, '/api/v1/events/ws', auth(user));
    const answers = [await one.subscribe({ table_id: table.id }), await one.subscribe({ base_id: table.baseId }), await two.subscribe({ table_id: other.id })];
    expect(answers.map((a) => a.op)).toEqual(['subscribed', 'subscribed', 'subscribed']);
    const fourth = await two.subscribe({ table_id: table.id });
    expect([fourth.op, fourth.status, fourth.error]).toEqual(['error', 429, 'ERR_TOO_MANY_REQUESTS']);
    one.send({ op: 'unsubscribe', subscription: answers[0].subscription, ref: 'free' });
    await one.until(() => one.messages.some((m) => m.ref === 'free'));
    let next: any;
    for (let attempt = 0; attempt < 25 && next?.op !== 'subscribed'; attempt += 1) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, 200));
      next = await two.subscribe({ table_id: table.id });
      if (next.op !== 'subscribed') expect(next.status).toBe(429);
    }
    expect(next.op).toBe('subscribed');
    one.close();
    await one.until(() => one.closed);
    // the closed socket's subscription is freed too (its release is asynchronous: refusals meanwhile are retried)
    let freed: any;
    for (let attempt = 0; attempt < 25 && freed?.op !== 'subscribed'; attempt += 1) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, 200));
      freed = await two.subscribe({ base_id: table.baseId });
      if (freed.op !== 'subscribed') expect(freed.status).toBe(429);
    }
    expect(freed.op).toBe('subscribed');
    two.close();
  });

  it('liveness: a client that answers no ping for 2 heartbeats is dropped and its subscriptions stop counting', async () => {
    const user = await api.signUp('silent');
    await api.addMember(root, table.baseId, user.email, 'viewer');
    const control = await api.signUp('answering');
    await api.addMember(root, table.baseId, control.email, 'viewer');
    // `autoPong: false`: the ws client receives the server's pings and never answers them
    const silent = await WsClient.open(stack.url, '/api/v1/events/ws', auth(user), { autoPong: false });
    const answering = await WsClient.open(stack.url, '/api/v1/events/ws', auth(control));
    const held = [await silent.subscribe({ table_id: table.id }), await silent.subscribe({ base_id: table.baseId }), await silent.subscribe({ table_id: other.id })];
    expect(held.map((a) => a.op)).toEqual(['subscribed', 'subscribed', 'subscribed']);
    expect((await answering.subscribe({ table_id: table.id })).op).toBe('subscribed');
    // at the cap: a fourth is refused while the silent socket lives
    const extra = await WsClient.open(stack.url, '/api/v1/events/ws', auth(user));
    expect((await extra.subscribe({ table_id: table.id })).status).toBe(429);
    await silent.until(() => silent.closed, 20_000, 'the silent socket to be dropped');
    expect(silent.pings).toBeGreaterThanOrEqual(2);
    expect(silent.closeCode).toBe(1006); // terminated: no close frame to a client that does not answer
    // the answering client, on the same heartbeat, outlives more pings than dropped the silent one, and is still served
    await answering.until(() => answering.closed || answering.pings >= silent.pings + 3, 20_000, 'more pings');
    expect(answering.closed).toBe(false);
    await insert(table, { Title: 'after-drop' });
    await answering.until(() => answering.messages.some((m) => m.op === 'event' && m.rows?.[0]?.Title === 'after-drop'), 10_000, 'an event after the drop');
    // the dropped socket's 3 subscriptions are released: the user may hold 3 again (the release is asynchronous: retried briefly)
    const answers: any[] = [];
    for (let attempt = 0; attempt < 25 && answers.length < 3; attempt += 1) {
      const a = await extra.subscribe({ table_id: table.id });
      if (a.op === 'subscribed') answers.push(a);
      else { expect(a.status).toBe(429); await new Promise((r) => setTimeout(r, 200)); }
    }
    expect(answers.map((a) => a.op)).toEqual(['subscribed', 'subscribed', 'subscribed']);
    expect((await extra.subscribe({ table_id: table.id })).status).toBe(429);
    extra.close();
    answering.close();
  });

  it('access ends: a removed member\'s subscriptions close (revoked); a revoked token closes the socket', async () => {
    const user = await api.signUp('member');
    await api.addMember(root, table.baseId, user.email, 'viewer');
    const ws = await WsClient.open(stack.url, '/api/v1/events/ws', auth(user));
    const sub = await ws.subscribe({ table_id: table.id });
    await api.ok('DELETE', `/api/v1/db/meta/projects/${table.baseId}/users/${user.id}`, { token: root.token }, 'remove member');
    await ws.until(() => ws.messages.some((m) => m.op === 'closed' && m.subscription === sub.subscription), 2000, 'the subscription to close within 2 s');
    expect(ws.messages.find((m) => m.op === 'closed')).toMatchObject({ reason: 'revoked' });
    expect((await ws.subscribe({ table_id: table.id })).error).toBe('ERR_TABLE_NOT_FOUND');
    ws.close();

    const created = await api.ok('POST', '/api/v1/tokens', { token: root.token, body: { description: 'ws' } }, 'token');
    const byToken = await WsClient.open(stack.url, '/api/v1/events/ws', { 'xc-token': String(created.body.token) });
    const tsub = await byToken.subscribe({ base_id: table.baseId });
    expect(tsub.op).toBe('subscribed');
    await api.ok('DELETE', `/api/v1/tokens/${created.body.id}`, { token: root.token }, 'revoke');
    await byToken.until(() => byToken.closed, 2000, 'the socket to close within 2 s');
    expect(byToken.closeCode).toBe(4001);
    expect(byToken.messages.find((m) => m.op === 'closed')).toMatchObject({ subscription: tsub.subscription, reason: 'revoked' });
  });

});

/**
 * A client that stops reading answers no pings either: with the file's 300 ms heartbeat the liveness
 * check may drop it (1006) before its buffer fills under a slow machine's inserts. Here the heartbeat is far
 * off, so only the buffer bound can end the socket, which is what this test is about.
 */
describe('live feed over a WebSocket, a slow reader', () => {
  const slow = {} as { stack: TestStack; api: TestApi; root: TestUser; baseId: string };
  beforeAll(async () => {
    ({ stack: slow.stack, api: slow.api } = await startRealtimeStack({ SVC_FEED_HEARTBEAT_MS: '600000', SVC_FEED_BUFFER_BYTES: '65536' }));
    slow.root = await slow.api.signUp('slow-root');
    slow.baseId = (await slow.api.baseWithTable(slow.root, { title: 'Seed', columns: [col.id(), col.text('Title')] })).baseId;
  }, 120_000);
  afterAll(async () => { await slow.stack?.stop(); });

  it('a slow client\'s buffer is bounded: its subscriptions close with the last delivered id, and resuming loses nothing', async () => {
    const t = await slow.api.createTable(slow.root, slow.baseId, { title: 'Slow', columns: [col.id(), col.text('Title'), col.longText('Body')] });
    const ws = await WsClient.open(slow.stack.url, '/api/v1/events/ws', auth(slow.root));
    const sub = await ws.subscribe({ table_id: t.id });
    const raw = (ws.ws as unknown as { _socket: import('node:net').Socket })._socket;
    raw.pause();
    const big = 'x'.repeat(10_000);
    const writes = 40;
    for (let i = 0; i < writes; i += 1) {
      await slow.api.ok('POST', `/api/v1/db/data/bulk/noco/${t.baseId}/${t.id}`, { token: slow.root.token, body: Array.from({ length: 50 }, (_, k) => ({ Title: `w${i}-${k}`, Body: big })) }, 'bulk insert');
    }
    raw.resume();
    await ws.until(() => ws.closed, 30_000, 'the socket to close');
    expect(ws.closeCode).toBe(4008);
    const closed = ws.messages.find((m) => m.op === 'closed');
    expect(closed).toMatchObject({ subscription: sub.subscription, reason: 'overflow' });
    const delivered = ws.events(sub.subscription);
    expect(delivered.length).toBeLessThan(writes);
    expect(closed.last_event_id).toBe(delivered.at(-1)?.id ?? null);
    const rest = await WsClient.open(slow.stack.url, '/api/v1/events/ws', auth(slow.root));
    const again = await rest.subscribe({ table_id: t.id, ...(closed.last_event_id ? { last_event_id: closed.last_event_id } : { last_event_id: '0' }) });
    await rest.until(() => rest.events(again.subscription).length >= writes - delivered.length, 30_000, 'the rest');
    expect(delivered.length + rest.events(again.subscription).length).toBe(writes);
    rest.close();
  });
});
