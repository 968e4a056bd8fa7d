import knex, { type Knex } from 'knex';
import { col, type TestApi, type TestStack, type TestTable, type TestUser } from '@tabula/testing';
import { SseClient, startRealtimeStack } from './realtime.helpers';

let stack: TestStack;
let api: TestApi;
let root: TestUser;
let table: TestTable;
let db: Knex;

beforeAll(async () => {
  ({ stack, api } = await startRealtimeStack({ SVC_FEED_RETENTION: '2s' }));
  db = knex({ client: 'pg', connection: stack.database.url, pool: { min: 0, max: 2 } });
  root = await api.signUp('root');
  table = await api.baseWithTable(root, { title: 'Items', columns: [col.id(), col.text('Title'), col.longText('Body')] });
}, 120_000);
afterAll(async () => { await db?.destroy(); await stack?.stop(); });

const auth = () => ({ 'xc-auth': root.token });

const insert = (body: unknown) => api.ok('POST', `/api/v1/db/data/noco/${table.baseId}/${table.id}`, { token: root.token, body }, 'insert');

describe('feed retention', () => {
  it('an id older than SVC_FEED_RETENTION gets one event: reset, then the stream goes on live', async () => {
    const sse = await SseClient.open(stack.url, `/api/v1/events/tables/${table.id}`, auth());
    await insert({ Title: 'old' });
    await sse.until(() => sse.events.length === 1);
    const oldId = sse.events[0].id as string;
    sse.close();
    // retention (2 s) passes and the log is pruned past the id
    const deadline = Date.now() + 15_000;
    while (Number((await db.raw('SELECT pruned_through FROM realtime.feed_state')).rows[0].pruned_through) < Number(oldId)) {
      if (Date.now() > deadline) throw new Error('the feed log was never pruned');
      await new Promise((r) => setTimeout(r, 200));
    }
    const resumed = await SseClient.open(stack.url, `/api/v1/events/tables/${table.id}`, { ...auth(), 'last-event-id': oldId });
    expect(resumed.status).toBe(200);
    await insert({ Title: 'new' });
    await resumed.until(() => resumed.events.length === 2);
    expect(resumed.events.map((e) => e.event)).toEqual(['reset', 'records.after.insert']);
    expect(resumed.events[1].data.rows[0].Title).toBe('new');
    resumed.close();
  });

});
