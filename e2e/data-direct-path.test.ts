import net from 'node:net';
import { TestApi, col, startTestStack, type TestStack } from '@tabula/testing';
import { authService } from '../services/auth/src/service';
import { metaService } from '../services/meta/src/service';
import { dataService } from '../services/data/src/service';
import { hooksService } from '../services/hooks/src/service';
import { gatewayService } from '../services/gateway/src/service';
import { sendAsWritten, type RawCall } from './raw-request.helpers';

/**
 * The data service's direct path for the hot records routes (list, read by
 * id, insert one; v1 on tables and views, v2, v3: directRoutes) answers
 * exactly what its Koa app answers: two stacks, one with SVC_DATA_DIRECT_PATH
 * off, get the same requests in the same order (so the same records exist on
 * both); statuses, headers and bodies must agree (ids and times aside),
 * errors included, and the data service records its request metric with the
 * same labels on both.
 */
interface Side {
  stack: TestStack;
  metricsPort: number;
  owner: string;
  viewer: string;
  stranger: string;
  baseId: string;
  tableId: string;
  viewId: string;
}

let direct: Side;
let koa: Side;

/** A port free at the moment (the metrics listener's: every service of the process). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    }).on('error', reject);
  });
}

async function side(extra: Record<string, string>): Promise<Side> {
  const metricsPort = await freePort();
  const stack = await startTestStack([authService, metaService, dataService, hooksService, gatewayService], { ...extra, METRICS_PORT: String(metricsPort) });
  const api = new TestApi(stack.url);
  const owner = await api.signUp('owner', `owner-${extra.SVC_DATA_DIRECT_PATH ?? 'direct'}@example.com`);
  const viewer = await api.signUp('viewer', `viewer-${extra.SVC_DATA_DIRECT_PATH ?? 'direct'}@example.com`);
  const stranger = await api.signUp('stranger', `stranger-${extra.SVC_DATA_DIRECT_PATH ?? 'direct'}@example.com`);
  const table = await api.baseWithTable(owner, { baseTitle: 'Direct', title: 'Items', columns: [col.id(), col.text('Name'), col.number('Num')] });
  await api.addMember(owner, table.baseId, viewer.email, 'viewer');
  const grid = await api.ok('POST', `/api/v1/db/meta/tables/${table.id}/grids`, { token: owner.token, body: { title: 'Grid' } }, 'grid');
  await api.insertRecords(owner, table, [{ Name: 'one', Num: 1 }, { Name: 'two', Num: 2 }, { Name: 'three', Num: 3 }]);
  return { stack, metricsPort, owner: owner.token, viewer: viewer.token, stranger: stranger.token, baseId: table.baseId, tableId: table.id, viewId: String(grid.body.id) };
}

beforeAll(async () => {
  [direct, koa] = await Promise.all([side({}), side({ SVC_DATA_DIRECT_PATH: 'false' })]);
});
afterAll(async () => {
  await direct?.stack.stop();
  await koa?.stack.stop();
});

/** Headers that differ between two runs by nature (content-length follows from the compared body). */
const VARYING = new Set(['date', 'x-request-id', 'content-length', 'keep-alive', 'connection']);

/** Record times in their API formats (the two stacks write their records a moment apart). */
const TIMESTAMPS = [/\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d+)?([+-]\d{2}:\d{2}|Z)?/g];

/** One request as written (the path goes as is), through the gateway; the sides' own ids read as placeholders. */
async function call(s: Side, make: (s: Side) => RawCall) {
  const res = await sendAsWritten(s.stack.url, make(s));
  let text = res.text.replaceAll(s.stack.url, '<origin>').replaceAll(s.baseId, '<base>').replaceAll(s.tableId, '<table>').replaceAll(s.viewId, '<view>');
  for (const t of TIMESTAMPS) text = text.replace(t, '<time>');
  return {
    status: res.status,
    headers: Object.fromEntries(Object.entries(res.headers).filter(([name]) => !VARYING.has(name))),
    requestId: res.headers['x-request-id'],
    text,
  };
}

const as = (token: string, more: Record<string, string> = {}) => ({ 'xc-auth': token, ...more });
const json = { 'content-type': 'application/json' };
const v1 = (s: Side, rest = '') => `/api/v1/db/data/noco/${s.baseId}/Items${rest}`;
const v1View = (s: Side, rest = '') => `/api/v1/db/data/noco/${s.baseId}/Items/views/Grid${rest}`;
const v2 = (s: Side, rest = '') => `/api/v2/tables/${s.tableId}/records${rest}`;
const v3 = (s: Side, rest = '') => `/api/v3/data/${s.baseId}/${s.tableId}/records${rest}`;
const post = (s: Side, path: string, body: string, token = s.owner): RawCall => ({ method: 'POST', path, headers: as(token, json), body });

const cases: [string, (s: Side) => RawCall][] = [
  // v1 on a table
  ['v1 read by id', (s) => ({ path: v1(s, '/2'), headers: as(s.owner) })],
  ['v1 read, trailing slash', (s) => ({ path: v1(s, '/2/'), headers: as(s.owner) })],
  ['v1 read, encoded id', (s) => ({ path: v1(s, '/%32'), headers: as(s.owner) })],
  ['v1 read, missing record', (s) => ({ path: v1(s, '/424242'), headers: as(s.owner) })],
  ['v1 read, bad id', (s) => ({ path: v1(s, '/abc'), headers: as(s.owner) })],
  ['v1 read, table named by id', (s) => ({ path: `/api/v1/db/data/noco/${s.baseId}/${s.tableId}/1`, headers: as(s.owner) })],
  ['v1 read, missing table', (s) => ({ path: `/api/v1/db/data/noco/${s.baseId}/Nope/1`, headers: as(s.owner) })],
  ['v1 read, missing base', (s) => ({ path: '/api/v1/db/data/noco/p_nope/Items/1', headers: as(s.owner) })],
  ['v1 read, no permission (not a member)', (s) => ({ path: v1(s, '/1'), headers: as(s.stranger) })],
  ['v1 read, no credential', (s) => ({ path: v1(s, '/1') })],
  ['v1 read, with Origin (gateway through its Koa app)', (s) => ({ path: v1(s, '/1'), headers: as(s.owner, { origin: 'https://example.com' }) })],
  ['v1 read, request id echoed', (s) => ({ path: v1(s, '/1'), headers: as(s.owner, { 'x-request-id': 'req-42.abc' }) })],
  ['v1 read, HEAD (through the app)', (s) => ({ method: 'HEAD', path: v1(s, '/1'), headers: as(s.owner) })],
  ['v1 list', (s) => ({ path: v1(s), headers: as(s.owner) })],
  ['v1 list, where, sort, fields, limit, offset', (s) => ({ path: v1(s, '?where=(Num,gt,1)&sort=-Num&fields=Name,Num&limit=1&offset=1'), headers: as(s.owner) })],
  ['v1 list, fields[] as axios sends them', (s) => ({ path: v1(s, '?fields[]=Name&fields[]=Num'), headers: as(s.owner) })],
  ['v1 list, bad where', (s) => ({ path: v1(s, '?where=(Num,zz,1)'), headers: as(s.owner) })],
  ['v1 list, unknown column in where', (s) => ({ path: v1(s, '?where=(Nope,eq,1)'), headers: as(s.owner) })],
  ['v1 list, bad limit', (s) => ({ path: v1(s, '?limit=abc'), headers: as(s.owner) })],
  ['v1 list, viewer may read', (s) => ({ path: v1(s), headers: as(s.viewer) })],
  ['v1 find-one (not a hot route)', (s) => ({ path: v1(s, '/find-one?where=(Num,eq,2)'), headers: as(s.owner) })],
  ['v1 count (not a hot route)', (s) => ({ path: v1(s, '/count'), headers: as(s.owner) })],
  ['v1 insert', (s) => post(s, v1(s), JSON.stringify({ Name: 'four', Num: 4 }))],
  ['v1 insert, invalid JSON', (s) => post(s, v1(s), '{"Name":')],
  ['v1 insert, wrong type', (s) => post(s, v1(s), JSON.stringify({ Num: 'abc' }))],
  ['v1 insert, unknown column', (s) => post(s, v1(s), JSON.stringify({ Nope: 1 }))],
  ['v1 insert, empty body', (s) => ({ method: 'POST', path: v1(s), headers: as(s.owner) })],
  ['v1 insert, NUL in a value', (s) => post(s, v1(s), JSON.stringify({ Name: 'a\u0000b' }))],
  ['v1 insert, viewer may not write', (s) => post(s, v1(s), JSON.stringify({ Name: 'no' }), s.viewer)],
  ['v1 insert, not JSON content type', (s) => ({ method: 'POST', path: v1(s), headers: as(s.owner, { 'content-type': 'text/plain' }), body: 'Name=x' })],
  // v1 on a view
  ['v1 view read', (s) => ({ path: v1View(s, '/1'), headers: as(s.owner) })],
  ['v1 view list', (s) => ({ path: v1View(s, '?limit=2'), headers: as(s.owner) })],
  ['v1 view insert', (s) => post(s, v1View(s), JSON.stringify({ Name: 'five', Num: 5 }))],
  ['v1 missing view', (s) => ({ path: `/api/v1/db/data/noco/${s.baseId}/Items/views/Nope`, headers: as(s.owner) })],
  // v2
  ['v2 read', (s) => ({ path: v2(s, '/3'), headers: as(s.owner) })],
  ['v2 read, bad id', (s) => ({ path: v2(s, '/abc'), headers: as(s.owner) })],
  ['v2 read, missing table', (s) => ({ path: '/api/v2/tables/m_nope/records/1', headers: as(s.owner) })],
  ['v2 list', (s) => ({ path: v2(s, '?limit=2&sort=-Id'), headers: as(s.owner) })],
  ['v2 list, view', (s) => ({ path: v2(s, `?viewId=${s.viewId}`), headers: as(s.owner) })],
  ['v2 list, bad where', (s) => ({ path: v2(s, '?where=(Num,eq'), headers: as(s.owner) })],
  ['v2 count (not a hot route)', (s) => ({ path: v2(s, '/count'), headers: as(s.owner) })],
  ['v2 insert one', (s) => post(s, v2(s), JSON.stringify({ Name: 'six', Num: 6 }))],
  ['v2 insert many', (s) => post(s, v2(s), JSON.stringify([{ Name: 'seven' }, { Name: 'eight' }]))],
  ['v2 insert, wrong type', (s) => post(s, v2(s), JSON.stringify({ Num: 'abc' }))],
  ['v2 insert, no permission', (s) => post(s, v2(s), JSON.stringify({ Name: 'x' }), s.stranger)],
  // v3
  ['v3 read', (s) => ({ path: v3(s, '/1'), headers: as(s.owner) })],
  ['v3 read, missing record', (s) => ({ path: v3(s, '/424242'), headers: as(s.owner) })],
  ['v3 list', (s) => ({ path: v3(s, '?pageSize=2'), headers: as(s.owner) })],
  ['v3 list, bad where', (s) => ({ path: v3(s, '?where=(Num,zz,1)'), headers: as(s.owner) })],
  ['v3 insert', (s) => post(s, v3(s), JSON.stringify({ fields: { Name: 'nine', Num: 9 } }))],
  ['v3 insert, invalid body', (s) => post(s, v3(s), JSON.stringify({ fields: 'x' }))],
  ['v3 insert, viewer may not write', (s) => post(s, v3(s), JSON.stringify({ fields: { Name: 'no' } }), s.viewer)],
  ['v3 missing base', (s) => ({ path: `/api/v3/data/p_nope/${s.tableId}/records`, headers: as(s.owner) })],
  // what the inserts left
  ['v1 list after the inserts', (s) => ({ path: v1(s, '?limit=100'), headers: as(s.owner) })],
];

const statuses = new Set<number>();

describe('data service direct path', () => {
  it.each(cases)('%s: same status, headers and body as the Koa app', async (name, make) => {
    const [a, b] = [await call(direct, make), await call(koa, make)];
    expect({ status: a.status, headers: a.headers, text: a.text }).toEqual({ status: b.status, headers: b.headers, text: b.text });
    statuses.add(a.status);
    expect(a.requestId).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
    if (name.includes('request id echoed')) expect(a.requestId).toBe('req-42.abc');
  });

  it('covers successes and each kind of refusal', () => {
    for (const status of [200, 400, 401, 403, 404]) expect(statuses).toContain(status);
  });

  it('records the data service request metric with the same labels on both paths', async () => {
    const metric = async (s: Side) => {
      const text = await (await fetch(`http://127.0.0.1:${s.metricsPort}/metrics`)).text();
      return text.split('\n').filter((l) => l.startsWith('http_server_duration_seconds_count') && l.includes('service="data"')).map((l) => l.replace(/ \d+$/, '')).sort();
    };
    const [a, b] = [await metric(direct), await metric(koa)];
    expect(a.length).toBeGreaterThan(0);
    expect(a).toEqual(b);
  });
});
