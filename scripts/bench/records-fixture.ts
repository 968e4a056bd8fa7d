import { Client } from 'pg';
import type { Principal } from '@tabula/auth';

/** A benchmark table as the meta service created it, with its physical names. */
export interface BenchTable {
  baseId: string;
  title: string;
  /** Physical schema (the base's default source) and table name. */
  schema: string;
  tableName: string;
}

/** The ten user columns of the benchmark tables (plus meta's system columns). */
const COLUMNS = [
  { column_name: 'name', title: 'Name', uidt: 'SingleLineText' },
  { column_name: 'score', title: 'Score', uidt: 'Number' },
  { column_name: 'price', title: 'Price', uidt: 'Decimal' },
  { column_name: 'done', title: 'Done', uidt: 'Checkbox' },
  { column_name: 'due', title: 'Due', uidt: 'Date' },
  { column_name: 'note', title: 'Note', uidt: 'LongText' },
  { column_name: 'email', title: 'Email', uidt: 'Email' },
  { column_name: 'qty', title: 'Qty', uidt: 'Number' },
  { column_name: 'status', title: 'Status', uidt: 'SingleLineText' },
  { column_name: 'city', title: 'City', uidt: 'SingleLineText' },
];

/** One row body for the records API (no system columns). */
export function sampleBody(i: number): Record<string, unknown> {
  return {
    Name: `row ${i}`, Score: i % 100_000, Price: (i % 1000) / 10, Done: i % 2 === 0, Due: '2024-05-17',
    Note: 'lorem ipsum dolor sit amet', Email: `u${i}@example.com`, Qty: i % 50, Status: 'open', City: 'Lisbon',
  };
}

/** Creates a fresh database next to DATABASE_URL and answers its URL. */
export async function freshDatabase(tag: string): Promise<string> {
  const admin = process.env.DATABASE_URL;
  if (!admin) throw new Error('DATABASE_URL is required');
  const name = `tabula_bench_${tag}_${Date.now()}`;
  const client = new Client({ connectionString: admin });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drops a database made by {@link freshDatabase} (FORCE: a stopping cluster may still hold connections). */
export async function dropDatabase(url: string): Promise<void> {
  const client = new Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try { await client.query(`DROP DATABASE IF EXISTS ${new URL(url).pathname.slice(1)} WITH (FORCE)`); } finally { await client.end(); }
}

/** Polls a URL until it answers 2xx (a process coming up). */
export async function waitFor(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try { if ((await fetch(url)).ok) return; } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not come up`);
}

async function call<T>(base: string, method: string, path: string, token: string | undefined, body?: unknown): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method, headers: { 'content-type': 'application/json', ...(token ? { 'xc-auth': token } : {}) }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

/** Signs a user up; answers its token and the principal the gateway would forge. */
export async function signup(base: string): Promise<{ token: string; principal: Principal }> {
  const email = `bench-${Date.now()}@example.com`;
  const { token } = await call<{ token: string }>(base, 'POST', '/api/v1/auth/user/signup', undefined, { email, password: 'bench-password-1' });
  const me = await call<{ id: string; roles: string }>(base, 'GET', '/api/v1/auth/user/me', token);
  return { token, principal: { kind: 'user', id: me.id, email, roles: me.roles.split(','), via: 'jwt' } };
}

/** Creates a base (once) and a 10-column table in it through the meta API. */
export async function createTable(base: string, token: string, title: string, baseId?: string): Promise<BenchTable> {
  const id = baseId ?? (await call<{ id: string }>(base, 'POST', '/api/v1/db/meta/projects/', token, { title: `Bench ${Date.now()}` })).id;
  const table = await call<{ table_name: string }>(base, 'POST', `/api/v1/db/meta/projects/${id}/tables`, token, {
    title, table_name: title.toLowerCase(), columns: [{ column_name: 'id', title: 'Id', uidt: 'ID', pk: true, ai: true }, ...COLUMNS],
  });
  return { baseId: id, title, schema: id, tableName: table.table_name };
}

/**
 * Fills a table straight in SQL (`INSERT … SELECT generate_series`), in the
 * base's schema, then indexes `score` (meta creates no user-column indexes: a
 * DBA would add this one; `DESC NULLS LAST` is the order the API sorts in, and
 * read backwards it serves `ASC NULLS FIRST` too) and ANALYZEs.
 */
export async function fillTable(dbUrl: string, t: BenchTable, rows: number): Promise<void> {
  const client = new Client({ connectionString: dbUrl });
  await client.connect();
  const q = `"${t.schema}"."${t.tableName}"`;
  try {
    await client.query(`insert into ${q} (name, score, price, done, due, note, email, qty, status, city, nc_order)
      select 'row ' || g, g % 100000, (g % 1000) / 10.0, g % 2 = 0, date '2024-01-01' + (g % 365), 'lorem ipsum dolor sit amet',
        'u' || g || '@example.com', g % 50, case when g % 3 = 0 then 'open' else 'closed' end, 'Lisbon', g
      from generate_series(1, $1::int) g`, [rows]);
    await client.query(`create index if not exists "${t.tableName}_score_idx" on ${q} (score desc nulls last)`);
    await client.query(`analyze ${q}`);
  } finally {
    await client.end();
  }
}
