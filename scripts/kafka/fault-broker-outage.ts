/**
 * Fault run 2 of issue 30: the Kafka broker is stopped for 10 s while single
 * inserts keep coming. Writes must keep being acknowledged (the outbox holds
 * the events in PostgreSQL), and once the broker is back every acknowledged
 * insert must reach the webhook sink: it prints acknowledged and failed
 * writes, deliveries, duplicates (per webhook-id), losses, and how many of the
 * table's deliveries arrived out of insert order (hooks send one call at a time,
 * `SVC_HOOKS_CONCURRENCY=1` unless set, so that order is the order the events
 * were handled in; it exits 1 on a failed write, a loss, or then a delivery out of order).
 *
 *   npm run build && DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379 \
 *     npx tsx scripts/kafka/fault-broker-outage.ts
 *
 * Inserts are paced (`FAULT_RATE`, 50/s, one at a time: fewer when an insert
 * takes longer): as fast as they go, a quiet machine acknowledges several
 * hundred a second, and one webhook call at a time drains such a backlog far
 * slower than the run would wait. Deliveries are awaited while they progress
 * (until all arrived, or 30 s without a new one): a loss is an event that
 * never arrived, not a late one.
 *
 * It starts its own broker (free port, temporary data dir) and cluster
 * (auth, meta, data, hooks from dist/), and stops both. Bounded: a few minutes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabase, startTestCluster, waitHealthy } from '@tabula/testing';
import { Sink, call, setupTable } from '../../e2e/hooks-e2e.helpers';
// @ts-expect-error plain ESM script without types
import { bootstrapOf, brokerSettings, fetchJars, formatStorage, resolvePort, startNode, stopNode, waitReady } from './broker.mjs';

const WRITE_MS = Number(process.env.FAULT_WRITE_MS ?? 25_000);
const OUTAGE_AT_MS = 5_000;
const OUTAGE_MS = Number(process.env.FAULT_OUTAGE_MS ?? 10_000);
const CONCURRENCY = process.env.SVC_HOOKS_CONCURRENCY ?? '1';
const RATE = Number(process.env.FAULT_RATE ?? 50);
/** How long the wait for deliveries goes on without a new one. */
const STALL_MS = 30_000;

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tabula-fault-kafka-'));
  const settings = await resolvePort(brokerSettings({ ...process.env, KAFKA_PORT: 'auto' }, { dataDir, nodes: 1 }));
  fetchJars();
  formatStorage(settings);
  await startNode(settings, 1);
  await waitReady(settings);
  const brokers = bootstrapOf(settings);
  const database = await createTestDatabase('tabula_fault');
  const sink = new Sink();
  await sink.start();
  const cluster = await startTestCluster(['auth', 'meta', 'data', 'hooks'], database.url, {
    EVENT_BUS: 'kafka', KAFKA_BROKERS: brokers, SVC_ALLOW_LOCAL_HOOKS: 'true', SVC_HOOKS_POLL_MS: '50',
    // one webhook call at a time, so the sink sees the order in which the table's events were handled
    // (with several in flight, calls overtake each other at the sink whatever the bus did)
    SVC_HOOKS_CONCURRENCY: CONCURRENCY,
  });
  try {
    const t = await setupTable(cluster.gatewayUrl, `fault-${Date.now()}@example.com`);
    const hook = await call(cluster.gatewayUrl, t.token, 'POST', `/api/v1/db/meta/tables/${t.tableId}/hooks`, {
      title: 'fault', event: 'after', operation: 'insert', version: 'v3', notification: { type: 'URL', payload: { method: 'POST', path: `${sink.url}/fault` } },
    });
    if (hook.status !== 200) throw new Error(`hook: ${hook.status}`);

    const acknowledged: string[] = [];
    let failed = 0;
    let duringOutage = 0;
    let outage = false;
    const started = Date.now();
    const outageDone = (async () => {
      await new Promise((r) => setTimeout(r, OUTAGE_AT_MS));
      await stopNode(settings, 1);
      outage = true;
      console.log(`broker stopped at ${Date.now() - started} ms`);
      await new Promise((r) => setTimeout(r, OUTAGE_MS));
      await startNode(settings, 1);
      await waitReady(settings);
      outage = false;
      console.log(`broker back at ${Date.now() - started} ms`);
    })();
    for (let i = 0; Date.now() - started < WRITE_MS; i += 1) {
      const due = started + (i * 1000) / RATE;
      if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
      const name = `w-${i}`;
      const res = await call(cluster.gatewayUrl, t.token, 'POST', `/api/v1/db/data/noco/${t.baseId}/${t.tableId}`, { Name: name }).catch(() => ({ status: 0 }));
      if (res.status === 200) {
        acknowledged.push(name);
        if (outage) duringOutage += 1;
      } else failed += 1;
    }
    await outageDone;
    await waitHealthy(`${cluster.serviceUrl('hooks')}/readyz`);
    let seen = 0;
    let progressAt = Date.now();
    for (;;) {
      const now = new Set(sink.at('/fault').map((r) => r.headers['webhook-id'])).size;
      if (now >= acknowledged.length) break;
      if (now > seen) { seen = now; progressAt = Date.now(); }
      if (Date.now() - progressAt > STALL_MS) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    await new Promise((r) => setTimeout(r, 2000));

    const requests = sink.at('/fault');
    const perId = new Map<string, number>();
    for (const r of requests) perId.set(r.headers['webhook-id'], (perId.get(r.headers['webhook-id']) ?? 0) + 1);
    const names = requests.map((r) => (JSON.parse(r.body).data.rows as { Name: string }[])[0].Name);
    const delivered = new Set(names);
    const firstSeen = [...new Map(names.map((n, i) => [n, i])).keys()];
    const outOfOrder = firstSeen.filter((name, i) => i > 0 && Number(name.slice(2)) < Number(firstSeen[i - 1].slice(2))).length;
    const counts = {
      acknowledged: acknowledged.length,
      acknowledgedDuringOutage: duringOutage,
      failedWrites: failed,
      webhookRequests: requests.length,
      duplicates: [...perId.values()].reduce((sum, n) => sum + n - 1, 0),
      losses: acknowledged.filter((name) => !delivered.has(name)).length,
      outOfOrder,
    };
    console.log(`fault run (broker stopped ${OUTAGE_MS / 1000} s under single inserts): ${JSON.stringify(counts)}`);
    if (counts.losses > 0 || counts.failedWrites > 0 || (CONCURRENCY === '1' && outOfOrder > 0)) process.exitCode = 1;
  } finally {
    await cluster.stop();
    await sink.stop();
    await database.drop();
    await stopNode(settings, 1);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
