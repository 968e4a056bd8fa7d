import { Agent, request } from 'undici';
import type { Pool } from 'pg';
import type { BenchTable } from './records-fixture';

/** Output columns of a record (what the data service selects for the bench table). */
const COLS = 'id, name, score, price, done, due, note, email, qty, status, city, created_at, updated_at';

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
