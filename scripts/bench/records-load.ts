import { Agent, request } from 'undici';
import type { Pool } from 'pg';
import type { LoadResult } from './load';
import type { BenchTable } from './records-fixture';

/** Output columns of a record (what the data service selects for the bench table). */
const COLS = 'id, name, score, price, done, due, note, email, qty, status, city, created_at, updated_at';

/**
 * Closed loop over any async operation (pg queries, POSTs) — the counterpart of
 * load.ts's GET-only runLoad, with the same result shape so printTable can
 * show both. Bounded by time and by a request count.
 */
export async function runOps(label: string, op: (i: number) => Promise<unknown>, concurrency: number, durationMs: number): Promise<LoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  let n = 0;
  const deadline = Date.now() + durationMs;
  const worker = async () => {
    while (Date.now() < deadline && latencies.length < 2_000_000) {
      const start = process.hrtime.bigint();
      try { await op(n++); } catch { errors += 1; }
      latencies.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = (Date.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN;
  return { label, requests: latencies.length, errors, rps: latencies.length / elapsed, p50: at(50), p99: at(99) };
}

/** A POST of JSON to a loopback URL; non-2xx answers throw (counted as errors). */
export function poster(url: string, headers: Record<string, string>, concurrency: number): { post: (body: unknown) => Promise<void>; close: () => Promise<void> } {
  const target = new URL(url);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(target.hostname)) throw new Error('benchmarks only target loopback');
  const agent = new Agent({ connections: concurrency, keepAliveTimeout: 10_000 });
  return {
    post: async (body) => {
      const res = await request(target, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body), dispatcher: agent });
      await res.body.dump();
      if (res.statusCode >= 400) throw new Error(`status ${res.statusCode}`);
    },
    close: () => agent.close(),
  };
}

/** The SQL the data service runs for each benchmarked call, straight through `pg`. */
export function rawQueries(pool: Pool, t: BenchTable) {
  const q = `"${t.schema}"."${t.tableName}"`;
  const insertCols = 'name, score, price, done, due, note, email, qty, status, city, created_by, updated_by, nc_order';
  const row = (i: number) => ({
    name: `row ${i}`, score: i, price: 1.5, done: true, due: '2024-05-17', note: 'lorem ipsum dolor sit amet',
    email: `u${i}@example.com`, qty: 3, status: 'open', city: 'Lisbon', created_by: 'u', updated_by: 'u', nc_order: 1e9 + i,
  });
  return {
    list: () => pool.query(`select ${COLS} from ${q} order by nc_order asc, id asc limit 25`),
    whereSort: (min: number) => pool.query(`select ${COLS} from ${q} where score > $1 order by score DESC NULLS LAST, nc_order asc, id asc limit 25`, [min]),
    read: (id: number) => pool.query(`select ${COLS} from ${q} where id in ($1)`, [id]),
    insertOne: (i: number) => {
      const r = row(i);
      return pool.query(`insert into ${q} (${insertCols}) values (${Object.keys(r).map((_, k) => `$${k + 1}`).join(', ')}) returning ${COLS}`, Object.values(r));
    },
    bulk: (i: number, size: number) => pool.query(
      `insert into ${q} (${insertCols}) select ${insertCols} from json_populate_recordset(null::${q}, $1::json) with ordinality as r order by r.ordinality returning ${COLS}`,
      [JSON.stringify(Array.from({ length: size }, (_, k) => row(i * size + k)))],
    ),
  };
}
