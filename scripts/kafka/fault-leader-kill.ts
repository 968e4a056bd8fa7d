/**
 * Fault run 3 of issue 30: three brokers (`kafka:start -- --nodes 3` shape),
 * the services' topics created with replication factor 3 and
 * min.insync.replicas=2 (the defaults for three brokers), single inserts into
 * one table, and mid-stream the leader of the partition that carries the
 * table's events is killed (SIGKILL). With acks=all an event the relay saw
 * acknowledged is on at least two brokers, so no acknowledged insert may be
 * lost: the webhook sink counts deliveries per webhook-id and per record, and
 * after the run the records topic is read back from the start and its events
 * counted per record id.
 *
 *   npm run build && DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379 \
 *     npm run kafka:fault:leader
 *
 * Starts its own three nodes (free ports, temporary data dir) and cluster
 * (auth, meta, data, hooks from dist/), and stops both. FAULT_WRITE_MS
 * (default 20000) and FAULT_AT_MS (6000) shape the stream.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { createTestDatabase, startTestCluster, waitHealthy } from '@tabula/testing';
import { Sink, call, setupTable } from '../../e2e/hooks-e2e.helpers';
// @ts-expect-error plain ESM script without types
import { bootstrapOf, brokerSettings, fetchJars, formatStorage, resolvePort, startNode, stopNode, waitReady } from './broker.mjs';

const WRITE_MS = Number(process.env.FAULT_WRITE_MS ?? 20_000);
const FAULT_AT_MS = Number(process.env.FAULT_AT_MS ?? 6_000);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tabula-fault-kafka3-'));
  const settings = await resolvePort(brokerSettings({ ...process.env, KAFKA_PORT: 'auto' }, { dataDir, nodes: 3 }));
  fetchJars();
  formatStorage(settings);
  for (const id of [1, 2, 3]) await startNode(settings, id);
  await waitReady(settings);
  const brokers = bootstrapOf(settings) as string;
  console.log(`three brokers: ${brokers}`);
  const kafka = new Kafka({ clientId: 'fault-leader', brokers: brokers.split(','), logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  const database = await createTestDatabase('tabula_fault');
  const sink = new Sink();
  await sink.start();
  const prefix = `l${Date.now().toString(36)}`;
  const cluster = await startTestCluster(['auth', 'meta', 'data', 'hooks'], database.url, {
    EVENT_BUS: 'kafka', KAFKA_BROKERS: brokers, EVENT_TOPIC_PREFIX: prefix, SVC_ALLOW_LOCAL_HOOKS: 'true', SVC_HOOKS_POLL_MS: '200',
  });
  try {
    const topic = `${prefix}.records`;
    const meta = await admin.fetchTopicMetadata({ topics: [topic] });
    const config = await admin.describeConfigs({ resources: [{ type: 2, name: topic, configNames: ['min.insync.replicas'] }], includeSynonyms: false });
    const minIsr = config.resources[0].configEntries.find((entry) => entry.configName === 'min.insync.replicas')?.configValue;
    console.log(`${topic}: ${meta.topics[0].partitions.length} partitions, replication factor ${meta.topics[0].partitions[0].replicas.length}, min.insync.replicas ${minIsr}`);

    const t = await setupTable(cluster.gatewayUrl, `leader-${Date.now()}@example.com`);
    const hook = await call(cluster.gatewayUrl, t.token, 'POST', `/api/v1/db/meta/tables/${t.tableId}/hooks`, {
      title: 'leader', event: 'after', operation: 'insert', version: 'v3', timeout: 5000,
      notification: { type: 'URL', payload: { method: 'POST', path: `${sink.url}/leader` } },
    });
    if (hook.status !== 200) throw new Error(`hook: ${hook.status}`);

    const acknowledged: string[] = [];
    let failed = 0;
    let killed = '';
    const started = Date.now();
    const faultDone = (async () => {
      await sleep(FAULT_AT_MS);
      // the table's partition: the one whose end offset moved
      const offsets = await admin.fetchTopicOffsets(topic);
      const partition = Number(offsets.find((o) => Number(o.high) > 0)?.partition);
      const leader = (await admin.fetchTopicMetadata({ topics: [topic] })).topics[0].partitions.find((p) => p.partitionId === partition)!.leader;
      await stopNode(settings, leader, { signal: 'SIGKILL' });
      killed = `SIGKILL broker ${leader}, leader of ${topic} partition ${partition}, at ${Date.now() - started} ms`;
      console.log(killed);
      // the admin's connection to the killed broker fails: ask the survivors, once they elected a new leader
      for (let attempt = 0; attempt < 20; attempt += 1) {
        try {
          const after = (await admin.fetchTopicMetadata({ topics: [topic] })).topics[0].partitions.find((p) => p.partitionId === partition)!;
          if (after.leader !== leader) {
            console.log(`partition ${partition} now: leader ${after.leader}, in-sync replicas ${after.isr.join(',')}`);
            return;
          }
        } catch {
          // retried
        }
        await sleep(500);
      }
    })();
    // rejected before it is awaited would end the process (unhandled rejection) with the cluster still running
    faultDone.catch(() => undefined);
    for (let i = 0; Date.now() - started < WRITE_MS; i += 1) {
      const name = `w-${i}`;
      const res = await call(cluster.gatewayUrl, t.token, 'POST', `/api/v1/db/data/noco/${t.baseId}/${t.tableId}`, { Name: name }).catch(() => ({ status: 0 }));
      if (res.status === 200) acknowledged.push(name); else failed += 1;
    }
    await faultDone;
    await waitHealthy(`${cluster.serviceUrl('hooks')}/readyz`);
    const until = Date.now() + 120_000;
    while (new Set(sink.at('/leader').map((r) => r.headers['webhook-id'])).size < acknowledged.length && Date.now() < until) await sleep(200);
    await sleep(2000);

    const requests = sink.at('/leader');
    const perId = new Map<string, number>();
    for (const r of requests) perId.set(r.headers['webhook-id'], (perId.get(r.headers['webhook-id']) ?? 0) + 1);
    const delivered = new Set(requests.map((r) => (JSON.parse(r.body).data.rows as { Name: string }[])[0].Name));

    // read the records topic back from the start (the surviving two brokers): inserts of this table per event id
    const inTopic = new Map<string, number>();
    const consumer = kafka.consumer({ groupId: `${prefix}.readback`, maxWaitTimeInMs: 500 });
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    const ends = await admin.fetchTopicOffsets(topic);
    const total = ends.reduce((sum, o) => sum + Number(o.high), 0);
    let seen = 0;
    await consumer.run({
      eachMessage: async ({ message }) => {
        seen += 1;
        const id = message.headers?.ce_id?.toString() ?? `offset-${message.offset}`;
        inTopic.set(id, (inTopic.get(id) ?? 0) + 1);
      },
    });
    const readUntil = Date.now() + 60_000;
    while (seen < total && Date.now() < readUntil) await sleep(200);
    await consumer.disconnect();

    const counts = {
      acknowledged: acknowledged.length,
      failedWrites: failed,
      webhookRequests: requests.length,
      duplicates: [...perId.values()].reduce((sum, n) => sum + n - 1, 0),
      losses: acknowledged.filter((name) => !delivered.has(name)).length,
      eventsInTopic: inTopic.size,
      eventsInTopicTwice: [...inTopic.values()].filter((n) => n > 1).length,
      killed,
    };
    console.log(`fault run (leader of a partition killed, RF 3, min.insync.replicas ${minIsr}, under single inserts): ${JSON.stringify(counts)}`);
    if (counts.losses > 0 || counts.failedWrites > 0) process.exitCode = 1;
  } finally {
    await admin.disconnect();
    await cluster.stop();
    await sink.stop();
    await database.drop();
    for (const id of [1, 2, 3]) await stopNode(settings, id);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
