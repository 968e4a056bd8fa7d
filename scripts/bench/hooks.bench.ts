/**
 * Webhook delivery: deliveries per second to a local sink, and commit-to-delivery
 * latency (API response of the write → request at the sink) for single inserts
 * and for 1000-row bulk inserts. Standalone Tabula runs in a child process; the
 * sink and the client run here. Needs DATABASE_URL.
 * Usage: npm run bench:hooks [-- --singles 300 --concurrency 8 --bulks 10]
 */
import path from 'node:path';
import { Client } from 'pg';
import { Sink, call, setupTable } from '../../e2e/hooks-e2e.helpers';
import { startStandaloneChild } from './standalone-child';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const singles = arg('singles', 300);
const concurrency = arg('concurrency', 8);
const bulks = arg('bulks', 10);

async function freshDatabase(): Promise<string> {
  const admin = process.env.DATABASE_URL;
  if (!admin) throw new Error('DATABASE_URL is required');
  const name = `tabula_bench_hooks_${Date.now()}`;
  const client = new Client({ connectionString: admin });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return url.toString();
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** Latency of each delivery: sink arrival time minus the write's API response time, by record name. */
function latencies(committedAt: Map<string, number>, arrivals: Map<string, number>): number[] {
  const out: number[] = [];
  for (const [name, at] of arrivals) {
    const committed = committedAt.get(name);
    if (committed !== undefined) out.push(Math.max(0, at - committed));
  }
  return out.sort((a, b) => a - b);
}

async function main(): Promise<void> {
  const server = await startStandaloneChild({ ...process.env, DATABASE_URL: await freshDatabase(), SVC_ALLOW_LOCAL_HOOKS: 'true', DATA_DIR: path.resolve('data/bench-hooks') }, 'hooks');
  const sink = new Sink();
  await sink.start();
  const arrivals = new Map<string, number>();
  const originalPush = sink.received.push.bind(sink.received);
  sink.received.push = (...items) => {
    for (const item of items) for (const row of (JSON.parse(item.body).data?.rows ?? []) as { Name: string }[]) arrivals.set(row.Name, Date.now());
    return originalPush(...items);
  };
  try {
    const t = await setupTable(server.url, `bench-hooks-${Date.now()}@example.com`);
    const hook = await call(server.url, t.token, 'POST', `/api/v1/db/meta/tables/${t.tableId}/hooks`, {
      title: 'bench', event: 'after', operation: ['insert'], version: 'v3', notification: { type: 'URL', payload: { method: 'POST', path: `${sink.url}/bench` } },
    });
    if (hook.status !== 200) throw new Error(`hook create failed: ${JSON.stringify(hook.body)}`);
    const committedAt = new Map<string, number>();
    const records = `/api/v1/db/data/noco/${t.baseId}/${t.tableId}`;
    let next = 0;
    const started = Date.now();
    await Promise.all(Array.from({ length: concurrency }, async () => {
      while (next < singles) {
        const name = `s-${next++}`;
        const res = await call(server.url, t.token, 'POST', records, { Name: name });
        if (res.status !== 200) throw new Error(`insert failed: ${res.status}`);
        committedAt.set(name, Date.now());
      }
    }));
    await sink.waitFor('/bench', singles, 120_000);
    const elapsed = (Math.max(...arrivals.values()) - started) / 1000;
    const single = latencies(committedAt, arrivals);
    const bulkLatency: number[] = [];
    for (let b = 0; b < bulks; b += 1) {
      const rows = Array.from({ length: 1000 }, (_, i) => ({ Name: `b${b}-${i}` }));
      const res = await call(server.url, t.token, 'POST', `/api/v1/db/data/bulk/noco/${t.baseId}/${t.tableId}`, rows);
      if (res.status !== 200) throw new Error(`bulk insert failed: ${res.status}`);
      const committed = Date.now();
      await sink.waitFor('/bench', singles + b + 1, 120_000);
      bulkLatency.push(Math.max(0, (arrivals.get(`b${b}-999`) ?? Date.now()) - committed));
    }
    bulkLatency.sort((a, b) => a - b);
    console.log(`\nwebhook deliveries to a local sink (standalone, ${concurrency} concurrent writers)`);
    console.table([
      { case: `single inserts (${singles})`, 'deliveries/s': (singles / elapsed).toFixed(0), 'p50 ms': pct(single, 50), 'p99 ms': pct(single, 99) },
      { case: `1000-row bulk inserts (${bulks})`, 'deliveries/s': '-', 'p50 ms': pct(bulkLatency, 50), 'p99 ms': pct(bulkLatency, 99) },
    ]);
  } finally {
    await sink.stop();
    await server.stop();
  }
}

main().then(() => process.exit(0)).catch((err) => { console.error(err); process.exit(1); });
