import fc from 'fast-check';
import { allEndpoints, pathParamNames, type AnyEndpoint } from '@tabula/contracts';
import { startSecurityStack, type SecurityStack, type TestUser } from './security.helpers';

/**
 * Bad-input fuzzing over every public route of the contracts: any path
 * parameter, query and body gives 2xx or 4xx with the JSON error body, never
 * a 5xx, never a hang. Routes join as their contracts are registered. A bounded
 * number of runs per route in CI (FUZZ_RUNS, default 6); set more for a long run.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 6);
const TIMEOUT_MS = 5000;

let s: SecurityStack;
let owner: TestUser;
const real: Record<string, string> = {};

const publicEndpoints = (): AnyEndpoint[] => allEndpoints().filter((e) => e.access !== 'internal');

/** A real id for parameters that name one of the fixtures, else junk. */
function realIdFor(name: string): string | undefined {
  const n = name.toLowerCase();
  if (n.includes('base') || n.includes('project')) return real.base;
  if (n.includes('table') || n.includes('model')) return real.table;
  if (n.includes('row') || n.includes('record')) return '1';
  return undefined;
}

const junk = fc.oneof(
  fc.string({ maxLength: 40 }), fc.constantFrom('..', '%2e%2e', '0', '-1', '1e309', 'null', '__proto__', "' OR 1=1 --", 'a'.repeat(300)),
  fc.integer().map(String),
);
const jsonValue = fc.oneof(fc.constant(undefined), fc.jsonValue({ maxDepth: 3 }), fc.anything({ maxDepth: 2 }).map((v) => {
  try { return JSON.parse(JSON.stringify(v ?? null)); } catch { return null; }
}), fc.dictionary(fc.constantFrom('title', 'comment', 'fk_model_id', 'row_id', 'ids', 'op', 'url', 'config', 'type', '__proto__', 'constructor'), fc.jsonValue({ maxDepth: 2 })));
const query = fc.dictionary(fc.constantFrom('limit', 'offset', 'where', 'sort', 'fields', 'ids', 'fk_model_id', 'row_id', 'includeConfig', 'force', 'page', 'pageSize'), junk, { maxKeys: 4 });

async function send(endpoint: AnyEndpoint, params: Record<string, string>, q: Record<string, string>, body: unknown): Promise<{ status: number; text: string }> {
  let path = endpoint.path;
  for (const name of pathParamNames(endpoint.path)) path = path.replace(`{${name}}`, encodeURIComponent(params[name] ?? 'x'));
  const qs = new URLSearchParams(q).toString();
  const res = await fetch(`${s.url}${path}${qs ? `?${qs}` : ''}`, {
    method: endpoint.method,
    headers: { 'content-type': 'application/json', 'xc-auth': owner.token },
    body: endpoint.method === 'GET' || body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  return { status: res.status, text: await res.text() };
}

beforeAll(async () => {
  s = await startSecurityStack({ SVC_ALLOW_LOCAL_HOOKS: 'false' });
  owner = await s.signUp('fuzz-owner');
  real.base = await s.createBase(owner, 'FuzzBase');
  real.table = await s.createTable(owner, real.base, 'FuzzTable');
  await s.call('POST', `/api/v1/db/data/noco/${real.base}/${real.table}`, { token: owner.token, body: { Title: 'row one' } });
}, 120_000);
afterAll(async () => { await s?.stop(); });

describe('bad-input fuzzing over every public contract', () => {
  it('covers the registered public routes', () => {
    const count = publicEndpoints().length;
    console.log(`fuzzing ${count} public routes × ${RUNS} runs × 2 (junk ids, real ids)`);
    expect(count).toBeGreaterThan(20);
  });

  it('never answers 5xx or hangs; every error is the JSON error body', async () => {
    const failures: string[] = [];
    for (const endpoint of publicEndpoints()) {
      const names = pathParamNames(endpoint.path);
      const params = fc.record(Object.fromEntries(names.map((n) => [n, fc.boolean().chain((useReal) => (useReal && realIdFor(n) ? fc.constant(realIdFor(n)!) : junk))])));
      await fc.assert(fc.asyncProperty(params, query, jsonValue, async (p, q, body) => {
        let reply;
        try {
          reply = await send(endpoint, p as Record<string, string>, q, body);
        } catch (err) {
          failures.push(`${endpoint.method} ${endpoint.path}: ${(err as Error).name} (${JSON.stringify({ p, q, body }).slice(0, 200)})`);
          return;
        }
        const bad = reply.status >= 500 || (reply.status >= 400 && !/"error"\s*:\s*"[A-Z_]+"[\s\S]*"msg"/.test(reply.text));
        if (bad) failures.push(`${endpoint.method} ${endpoint.path} → ${reply.status} ${reply.text.slice(0, 160)} (${JSON.stringify({ p, q, body }).slice(0, 200)})`);
      }), { numRuns: RUNS });
    }
    expect(failures).toEqual([]);
  }, 600_000);
});
