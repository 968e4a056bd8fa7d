import { col, type TestApi, type TestStack, type TestTable, type TestUser } from '@tabula/testing';
import { SseClient, startRealtimeStack } from './realtime.helpers';

let stack: TestStack;
let api: TestApi;
let root: TestUser;
let table: TestTable;

beforeAll(async () => {
  ({ stack, api } = await startRealtimeStack({ SVC_FEED_BUFFER_BYTES: '65536' }));
  root = await api.signUp('root');
  table = await api.baseWithTable(root, { title: 'Items', columns: [col.id(), col.text('Title'), col.longText('Body')] });
}, 120_000);
afterAll(async () => { await stack?.stop(); });

const auth = () => ({ 'xc-auth': root.token });

describe('feed limits: a slow consumer', () => {
  it('a slow consumer\'s buffer is bounded: the stream closes with the last delivered id', async () => {
    const sse = await SseClient.open(stack.url, `/api/v1/events/tables/${table.id}`, auth());
    expect(sse.status).toBe(200);
    sse.pause();
    const big = 'x'.repeat(10_000);
    const writes = 40;
    for (let i = 0; i < writes; i += 1) {
      await api.ok('POST', `/api/v1/db/data/bulk/noco/${table.baseId}/${table.id}`, { token: root.token, body: Array.from({ length: 50 }, (_, k) => ({ Title: `w${i}-${k}`, Body: big })) }, 'bulk insert');
    }
    sse.resume();
    await sse.until(() => sse.ended, 30_000, 'the stream to be closed');
    const last = sse.events.at(-1)!;
    expect(last.event).toBe('overflow');
    const delivered = sse.events.filter((e) => e.event === 'records.after.insert');
    expect(delivered.length).toBeLessThan(writes);
    expect(last.data.last_event_id).toBe(delivered.at(-1)?.id ?? null);
    // resuming from that id replays the rest: nothing was lost
    const rest = await SseClient.open(stack.url, `/api/v1/events/tables/${table.id}`, { ...auth(), 'last-event-id': String(last.data.last_event_id) });
    await rest.until(() => rest.events.length >= writes - delivered.length, 30_000, 'the rest');
    expect(delivered.length + rest.events.length).toBe(writes);
    rest.close();
  });
});
