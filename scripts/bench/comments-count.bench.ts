/**
 * Comment counts: `GET /api/v1/db/meta/comments/count` for 1000 row ids on a
 * table holding 100,000 comments (10 per record on 10,000 records, one of each
 * soft-deleted). Prints p50/p95/p99 through the gateway and straight to the
 * comments handler, sequential (latency) and with concurrent clients
 * (throughput), plus the plan of the one statement a count runs
 * (services/comments/test/comment-count.statements.test.ts counts it).
 * Standalone Tabula runs in a child process. Needs DATABASE_URL.
 * Usage: npm run bench:comments [-- --requests 300 --concurrency 8]
 */
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { signIdentity } from '@tabula/auth';
import { TabulaClient } from '../../e2e/comments-e2e.helpers';
import { startStandaloneChild } from './standalone-child';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const requests = arg('requests', 300);
const concurrency = arg('concurrency', 8);
const ROWS = 10_000;
const PER_ROW = 10;

async function freshDatabase(): Promise<string> {
  const admin = process.env.DATABASE_URL;
  if (!admin) throw new Error('DATABASE_URL is required');
  const name = `tabula_bench_comments_${Date.now()}`;
  const client = new Client({ connectionString: admin });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return url.toString();
}

async function dropDatabase(url: string): Promise<void> {
  const client = new Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS ${new URL(url).pathname.slice(1)} WITH (FORCE)`);
  await client.end();
}

/** 100,000 comments on the table (the last one of each record soft-deleted). */
async function seed(pg: Client, t: { baseId: string; tableId: string; sourceId: string }, userId: string): Promise<void> {
  await pg.query(`
    INSERT INTO comments.comments (id, base_id, source_id, fk_model_id, row_id, comment, created_by, created_by_email, is_deleted)
    SELECT 'com' || lpad(to_hex(g), 14, '0'), $1, $2, $3, ((g % $4::int) + 1)::text, 'comment ' || g, $5, 'bench@example.com', g > $4::int * ($6::int - 1)
      FROM generate_series(1, $4::int * $6::int) AS g`, [t.baseId, t.sourceId, t.tableId, ROWS, userId, PER_ROW]);
  await pg.query('VACUUM ANALYZE comments.comments');
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** A count path for 1000 consecutive ids starting at a random record (some past the last one: zeros). */
function countPath(tableId: string): { path: string; first: number } {
  const first = 1 + Math.floor(Math.random() * (ROWS - 500));
  const ids = Array.from({ length: 1000 }, (_, i) => `ids[]=${first + i}`).join('&');
  return { path: `/api/v1/db/meta/comments/count?fk_model_id=${tableId}&${ids}`, first };
}

/** Runs `total` requests with `workers` clients; returns sorted latencies (ms) and the elapsed time. */
async function load(base: string, headers: Record<string, string>, tableId: string, total: number, workers: number) {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < total) {
      next += 1;
      const { path, first } = countPath(tableId);
      const t0 = performance.now();
      const res = await fetch(`${base}${path}`, { headers });
      const body = (await res.json()) as Record<string, number>;
      latencies.push(performance.now() - t0);
      const live = Math.max(0, Math.min(ROWS, first + 999) - first + 1);
      const sum = Object.values(body).reduce((a, b) => a + b, 0);
      if (res.status !== 200 || Object.keys(body).length !== 1000 || sum !== live * (PER_ROW - 1)) throw new Error(`bad answer ${res.status} sum=${sum}`);
    }
  };
  await Promise.all(Array.from({ length: workers }, worker));
  return { sorted: latencies.sort((a, b) => a - b), seconds: (performance.now() - started) / 1000 };
}

function report(label: string, r: { sorted: number[]; seconds: number }): void {
  const f = (n: number) => n.toFixed(2).padStart(8);
  console.log(`${label.padEnd(34)} p50 ${f(pct(r.sorted, 50))} ms  p95 ${f(pct(r.sorted, 95))} ms  p99 ${f(pct(r.sorted, 99))} ms  ${(r.sorted.length / r.seconds).toFixed(0).padStart(6)} req/s`);
}

async function main(): Promise<void> {
  const databaseUrl = await freshDatabase();
  const server = await startStandaloneChild({
    ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: path.resolve('data/bench-comments'),
    // the direct calls forge the gateway's identity header with it
    SVC_INTERNAL_SECRET: process.env.SVC_INTERNAL_SECRET ?? randomBytes(48).toString('base64url'),
  }, 'comments');
  const pg = new Client({ connectionString: databaseUrl });
  await pg.connect();
  try {
    const api = new TabulaClient(server.url);
    const root = await api.signup('bench');
    const t = await api.baseWithTable(root, 1);
    const table = await api.call('GET', `/api/v1/db/meta/tables/${t.tableId}`, root.token);
    await seed(pg, { ...t, sourceId: table.body.source_id }, root.id);
    const direct = { 'x-tabula-identity': signIdentity({ kind: 'user', id: root.id, email: root.email, roles: ['org-level-creator', 'super'] }, server.secret) };
    const viaGateway = { 'xc-auth': root.token };
    await load(server.url, viaGateway, t.tableId, 30, 2); // warm-up: caches, JIT, connections
    console.log(`count of 1000 ids, table with ${ROWS * PER_ROW} comments (${ROWS} records), ${requests} requests each`);
    report('gateway, 1 client', await load(server.url, viaGateway, t.tableId, requests, 1));
    report('direct (comments handler), 1 client', await load(server.directUrl, direct, t.tableId, requests, 1));
    report(`gateway, ${concurrency} clients`, await load(server.url, viaGateway, t.tableId, requests, concurrency));
    const ids = Array.from({ length: 1000 }, (_, i) => String(4000 + i));
    const plan = await pg.query(`EXPLAIN (ANALYZE, BUFFERS) SELECT ids.row_id, (SELECT count(*) FROM comments.comments c
      WHERE c.fk_model_id = $2 AND c.row_id = ids.row_id AND c.base_id = $3 AND NOT c.is_deleted) AS n FROM unnest($1::text[]) AS ids(row_id)`,
    [ids, t.tableId, t.baseId]);
    console.log(`the one statement of a count:\n${plan.rows.map((r: Record<string, string>) => `  ${r['QUERY PLAN']}`).join('\n')}`);
  } finally {
    await pg.end();
    await server.stop();
    await dropDatabase(databaseUrl);
  }
}

main().catch((err) => { console.error(err); process.exit(1); });
