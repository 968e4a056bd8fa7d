import { Api } from 'nocodb-sdk';
import { TestApi, startTestStack, type TestStack } from '@tabula/testing';
import { authService } from '../services/auth/src/service';
import { metaService } from '../services/meta/src/service';
import { dataService } from '../services/data/src/service';
import { gatewayService } from '../services/gateway/src/service';
import { sendAsWritten, type RawCall } from './raw-request.helpers';

/**
 * The gateway's direct path for API requests (edge-handler.ts) answers exactly
 * what its Koa app answers: two stacks, one with SVC_GATEWAY_DIRECT_PATH off,
 * get the same requests; statuses, headers and bodies must agree (ids and
 * times aside), and both record the request metric with the same labels.
 */
interface Side {
  stack: TestStack;
  token: string;
  baseId: string;
  recordId: number;
}

const env = { SVC_GATEWAY_MAX_BODY_BYTES: '2048', SVC_METRICS_PUBLIC: 'true' };
let direct: Side;
let koa: Side;

async function side(extra: Record<string, string>): Promise<Side> {
  const stack = await startTestStack([authService, metaService, dataService, gatewayService], { ...env, ...extra });
  const token = (await new TestApi(stack.url).signUp('direct', 'direct-path@example.com')).token;
  const api = new Api({ baseURL: stack.url, headers: { 'xc-auth': token } });
  const baseId = (await api.base.create({ title: 'Direct' })).id as string;
  await api.dbTable.create(baseId, {
    title: 'Items', table_name: 'items',
    columns: [{ column_name: 'id', title: 'Id', uidt: 'ID', pk: true, ai: true }, { column_name: 'name', title: 'Name', uidt: 'SingleLineText' }],
  } as never);
  const created = (await api.dbTableRow.create('noco', baseId, 'Items', { Name: 'one' })) as { Id: number };
  return { stack, token, baseId, recordId: created.Id };
}

beforeAll(async () => {
  [direct, koa] = await Promise.all([side({}), side({ SVC_GATEWAY_DIRECT_PATH: 'false' })]);
});
afterAll(async () => {
  await direct?.stack.stop();
  await koa?.stack.stop();
});

/** Headers that differ between two runs by nature. */
const VARYING = new Set(['date', 'x-request-id', 'content-length', 'etag', 'keep-alive', 'connection']);

/**
 * Record times in their API format: the two stacks create their records in
 * parallel, and a second can tick between them (CI saw 19:03:39 against
 * 19:03:40). The format itself still has to match on both sides.
 */
const TIMESTAMP = /\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}/g;

/** One request as written (the path goes as is: a URL would resolve `%2e%2e`). */
async function call(s: Side, make: (s: Side) => RawCall) {
  const res = await sendAsWritten(s.stack.url, make(s));
  return {
    status: res.status,
    headers: Object.fromEntries(Object.entries(res.headers).filter(([name]) => !VARYING.has(name))),
    requestId: res.headers['x-request-id'],
    text: res.text.replaceAll(s.baseId, '<base>').replace(TIMESTAMP, '<time>'),
  };
}

const auth = (s: Side) => ({ 'xc-auth': s.token });
const items = (s: Side) => `/api/v1/db/data/noco/${s.baseId}/Items`;

const cases: [string, (s: Side) => RawCall][] = [
  ['read by id', (s) => ({ path: `${items(s)}/${s.recordId}`, headers: auth(s) })],
  ['list', (s) => ({ path: `${items(s)}?fields=Name`, headers: auth(s) })],
  ['missing record', (s) => ({ path: `${items(s)}/424242`, headers: auth(s) })],
  ['no credential', (s) => ({ path: items(s) })],
  ['bad token', (s) => ({ path: items(s), headers: { 'xc-auth': 'not.a.token' } })],
  ['dot segment', (s) => ({ path: `/api/v1/db/data/noco/%2e%2e/${s.baseId}/Items`, headers: auth(s) })],
  ['declared body over the limit', (s) => ({ method: 'POST', path: items(s), headers: { ...auth(s), 'content-type': 'application/json' }, body: JSON.stringify({ Name: 'x'.repeat(4096) }) })],
  ['invalid body', (s) => ({ method: 'POST', path: items(s), headers: { ...auth(s), 'content-type': 'application/json' }, body: '{"Name":' })],
  ['client request id echoed', (s) => ({ path: `${items(s)}/${s.recordId}`, headers: { ...auth(s), 'x-request-id': 'req-123.abc' } })],
];

describe('gateway direct path', () => {
  it.each(cases)('%s: same status, headers and body as the Koa app', async (_name, make) => {
    const [a, b] = [await call(direct, make), await call(koa, make)];
    expect(a.status).toBe(b.status);
    expect(a.headers).toEqual(b.headers);
    expect(a.text).toBe(b.text);
    if (_name === 'dot segment') expect(a.status).toBe(400);
    expect(a.requestId).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
    if (make(direct).headers?.['x-request-id']) expect(a.requestId).toBe('req-123.abc');
  });

  it('records the request metric with the same labels on both paths', async () => {
    const metric = async (s: Side) => {
      const text = await (await fetch(`${s.stack.url}/metrics`)).text();
      return text.split('\n').filter((l) => l.startsWith('http_server_duration_seconds_count') && l.includes('service="gateway"') && l.includes('/api/v1/db/data/')).map((l) => l.replace(/ \d+$/, '')).sort();
    };
    const [a, b] = [await metric(direct), await metric(koa)];
    expect(a.length).toBeGreaterThan(0);
    expect(a).toEqual(b);
  });
});
