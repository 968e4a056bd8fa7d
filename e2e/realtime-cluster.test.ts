import { TestApi, col, createTestDatabase, describeWithBackend, startTestCluster, type TestCluster, type TestDatabase, type TestTable, type TestUser } from '@tabula/testing';
import { SseClient, WsClient, countBy } from './realtime.helpers';

/**
 * Cluster mode: the realtime service as its own process behind the gateway.
 * The process a client streams from is killed; the client's stream ends, it
 * reconnects with Last-Event-ID to the service started again, and gets every
 * event once — also those committed while no realtime process ran (they wait
 * on the bus for the feed log's shared group).
 */
describeWithBackend('redis', 'realtime in cluster mode (auth, meta, data, realtime, gateway as separate processes)', () => {
  let database: TestDatabase;
  let cluster: TestCluster;
  let api: TestApi;
  let user: TestUser;
  let table: TestTable;

  beforeAll(async () => {
    database = await createTestDatabase();
    cluster = await startTestCluster(['auth', 'meta', 'data', 'realtime'], database.url, { SVC_FEED_HEARTBEAT_MS: '500' });
    api = new TestApi(cluster.gatewayUrl);
    user = await api.signUp('cluster');
    table = await api.baseWithTable(user, { title: 'Items', columns: [col.id(), col.text('Title')] });
  }, 180_000);

  afterAll(async () => {
    await cluster?.stop();
    await database?.drop();
  });

  const insert = (title: string) => api.ok('POST', `/api/v1/db/data/noco/${table.baseId}/${table.id}`, { token: user.token, body: { Title: title } }, 'insert');

  it('streams through the gateway and survives a restart of the realtime process, missing and repeating nothing', async () => {
    const first = await SseClient.open(cluster.gatewayUrl, `/api/v1/events/tables/${table.id}`, { 'xc-auth': user.token });
    expect(first.status).toBe(200);
    for (let i = 0; i < 5; i += 1) await insert(`a${i}`);
    await first.until(() => first.events.length === 5, 20_000, 'five events');
    await first.until(() => first.pings > 0, 20_000, 'a heartbeat through the gateway');
    await cluster.kill('realtime');
    await first.until(() => first.ended, 20_000, 'the stream to end with its process');
    for (let i = 0; i < 5; i += 1) await insert(`b${i}`);
    await cluster.restart('realtime');
    const second = await SseClient.open(cluster.gatewayUrl, `/api/v1/events/tables/${table.id}`, { 'xc-auth': user.token, 'last-event-id': first.events.at(-1)!.id! });
    expect(second.status).toBe(200);
    for (let i = 0; i < 5; i += 1) await insert(`c${i}`);
    await second.until(() => second.events.length >= 10, 30_000, 'the missed and the new events');
    const titles = countBy([...first.events, ...second.events].map((e) => e.data.rows[0].Title as string));
    const expected = ['a', 'b', 'c'].flatMap((p) => [0, 1, 2, 3, 4].map((i) => `${p}${i}`));
    expect(expected.map((t) => [t, titles.get(t)])).toEqual(expected.map((t) => [t, 1]));
    expect(titles.size).toBe(15);
    second.close();
  }, 120_000);

  it('a WebSocket opens through the gateway (headers or a ticket), carries two subscriptions, and refusals travel back', async () => {
    const other = await api.createTable(user, table.baseId, { title: 'Other', columns: [col.id(), col.text('Title')] });
    const ws = await WsClient.open(cluster.gatewayUrl, '/api/v1/events/ws', { 'xc-auth': user.token });
    const a = await ws.subscribe({ table_id: table.id });
    const b = await ws.subscribe({ table_id: other.id });
    await insert('ws');
    await api.ok('POST', `/api/v1/db/data/noco/${table.baseId}/${other.id}`, { token: user.token, body: { Title: 'ws other' } }, 'insert');
    await ws.until(() => ws.events(a.subscription).length === 1 && ws.events(b.subscription).length === 1, 20_000, 'one event each');
    expect([ws.events(a.subscription)[0].rows[0].Title, ws.events(b.subscription)[0].rows[0].Title]).toEqual(['ws', 'ws other']);
    ws.close();
    const issued = await api.ok('POST', '/api/v1/events/tickets', { token: user.token, body: { table_id: table.id } }, 'ticket');
    const byTicket = await WsClient.open(cluster.gatewayUrl, `/api/v1/events/ws?ticket=${issued.body.ticket}`);
    expect((await byTicket.subscribe({ table_id: table.id })).op).toBe('subscribed');
    byTicket.close();
    // refused by the realtime replica (a used ticket) and by the gateway (no credential): the JSON error comes back
    const reused = await WsClient.refusal(cluster.gatewayUrl, `/api/v1/events/ws?ticket=${issued.body.ticket}`);
    expect([reused.status, reused.body.error]).toEqual([401, 'ERR_AUTHENTICATION_REQUIRED']);
    expect((await WsClient.refusal(cluster.gatewayUrl, '/api/v1/events/ws')).status).toBe(401);
  });

  it('a ticket opens a stream through the gateway without any header', async () => {
    const issued = await api.ok('POST', '/api/v1/events/tickets', { token: user.token, body: { base_id: table.baseId } }, 'ticket');
    const sse = await SseClient.open(cluster.gatewayUrl, `/api/v1/events/bases/${table.baseId}?ticket=${issued.body.ticket}`);
    expect(sse.status).toBe(200);
    await insert('by ticket');
    await sse.until(() => sse.events.some((e) => e.data.rows?.[0]?.Title === 'by ticket'), 20_000);
    sse.close();
  });
});
