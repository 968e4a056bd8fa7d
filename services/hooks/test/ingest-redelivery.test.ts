import { spawn } from 'node:child_process';
import path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { createClient } from 'redis';
import { Kafka, logLevel } from 'kafkajs';
import { RecordOperation, RecordsChangedSchema, encodeEvent, topics } from '@tabula/contracts';
import { createKnex, runMigrations } from '@tabula/db';
import { backendUrl, createTestDatabase, describeWithBackend, type TestDatabase } from '@tabula/testing';
import { Sink } from '../../../e2e/hooks-e2e.helpers';
import { migrations } from '../migrations';
import { Wake } from '../src/adapters/wake';
import { recordsConsumer } from '../src/consumers/records.consumer';
import { DeliveryWorker } from '../src/delivery/delivery-worker';
import { insertHook } from '../src/repositories/hook.repository';
import { HOOKS_SCHEMA } from '../src/repositories/hooks-db';
import { DeliveryModel } from '../src/repositories/delivery.repository';
import { TABLE, box, runBus, runPorts, type RunBus } from './redelivery.fixture';

/**
 * Event-id dedupe in hooks, under a fault that really redelivers an
 * already-ingested event: a records consumer is killed (SIGKILL) right after
 * its ingestion transaction committed and before it acknowledged the batch
 * (crash-after-ingest.main.ts), so the bus hands the same events again to the
 * surviving member of the group (Redis Streams: XAUTOCLAIM of the dead
 * member's pending entries; Kafka: the uncommitted offsets, after the dead
 * member's session expired). Asserted per event id: the sink receives exactly
 * one delivery (one webhook-id, one request) for each, and the bus ends with
 * nothing unacknowledged (the redelivered batch was handled). With the dedupe
 * removed (ingestDeliveries inserting deliveries for ids already processed)
 * each redelivered event is delivered twice and this test fails.
 */
const EVENTS = 12;

async function unacknowledged(bus: RunBus, prefix: string): Promise<number> {
  if (bus === 'redis') {
    const redis = createClient({ url: backendUrl('redis') });
    await redis.connect();
    try {
      const reply = await redis.sendCommand(['XPENDING', `${prefix}.${topics.records}`, `${prefix}.hooks`]) as [number, ...unknown[]];
      return Number(reply[0]);
    } finally { await redis.quit(); }
  }
  const admin = new Kafka({ clientId: 'redelivery-test', brokers: (backendUrl('kafka') as string).split(','), logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    const topic = `${prefix}.${topics.records}`;
    const ends = await admin.fetchTopicOffsets(topic);
    const [committed] = await admin.fetchOffsets({ groupId: `${prefix}.hooks`, topics: [topic] });
    const at = new Map(committed.partitions.map((p) => [p.partition, Number(p.offset)]));
    return ends.reduce((sum, p) => sum + Number(p.offset) - Math.max(0, at.get(p.partition) ?? 0), 0);
  } finally { await admin.disconnect(); }
}

/** Runs the crashing consumer to its death; resolves with how it ended and what it printed. */
function crashingConsumer(databaseUrl: string, bus: RunBus, prefix: string): Promise<{ signal: NodeJS.Signals | null; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'crash-after-ingest.main.ts')], {
    env: { ...process.env, DATABASE_URL: databaseUrl, RUN_BUS: bus, RUN_PREFIX: prefix }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c) => { output += String(c); });
  child.stderr.on('data', (c) => { output += String(c); });
  const timer = setTimeout(() => child.kill('SIGTERM'), 90_000);
  return new Promise((resolve) => child.on('exit', (_code, signal) => { clearTimeout(timer); resolve({ signal, output }); }));
}

async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function redeliverySuite(bus: RunBus): void {
  let database: TestDatabase;
  let db: Knex;
  const sink = new Sink();
  const prefix = `redeliver${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    await sink.start();
    database = await createTestDatabase();
    db = createKnex({ url: database.url, poolMax: 4 });
    await runMigrations(db, HOOKS_SCHEMA, migrations);
    await insertHook(db, {
      id: 'hk_redeliver', fk_model_id: TABLE, base_id: 'b_test', title: 'redeliver', description: null, event: 'after', operation: ['insert'],
      notification: { type: 'URL', payload: { method: 'POST', path: `${sink.url}/redeliver` } }, active: true, async: true, retries: 0,
      retry_interval: 100, timeout: 5000, version: 'v3', condition: false, trigger_field: false, trigger_fields: [], secret_sealed: box.seal('whsec_test'),
    });
  }, 60_000);

  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
    await sink.stop();
  });

  it('a consumer killed after its ingest committed and before its ack: the redelivered events are delivered exactly once each', async () => {
    const producer = runBus(bus, prefix, 'records-producer');
    const eventIds = Array.from({ length: EVENTS }, () => randomUUID());
    await producer.publish(eventIds.map((eventId, i) => ({
      topic: topics.records, key: TABLE, type: 'records.after.insert', id: eventId,
      payload: encodeEvent(RecordsChangedSchema, {
        eventId, type: 'records.after.insert', operation: RecordOperation.INSERT, baseId: 'b_test', tableId: TABLE, tableTitle: 'Items',
        rowsJson: JSON.stringify([{ Id: i + 1, Name: eventId }]),
      }),
    })));
    await producer.close();

    // 1. the first member ingests a batch, commits, and dies before acknowledging it
    const crash = await crashingConsumer(database.url, bus, prefix);
    expect([crash.signal, crash.output]).toEqual(['SIGKILL', expect.stringContaining('ingested, killing myself before the ack')]);
    const processed = (await db.withSchema(HOOKS_SCHEMA).table('processed_events').select<{ event_id: string }[]>('event_id')).map((r) => r.event_id);
    const committed = await DeliveryModel.query(db).where({ hook_id: 'hk_redeliver' });
    expect(processed.length).toBeGreaterThan(0);
    expect(committed.map((d) => d.event_id).sort()).toEqual([...processed].sort());
    const pendingAtDeath = await unacknowledged(bus, prefix);
    // every ingested event is still unacknowledged on the bus: it will be delivered again
    expect(pendingAtDeath).toBeGreaterThanOrEqual(processed.length);

    // 2. the surviving member: the bus redelivers the ingested batch (and whatever the dead one had not read)
    const wake = new Wake();
    const consumerBus = runBus(bus, prefix, 'hooks-surviving');
    const ports = runPorts(db, consumerBus, wake);
    const worker = new DeliveryWorker(ports);
    worker.start();
    const consumer = await recordsConsumer.start(ports);
    try {
      await waitUntil('the bus to have every event acknowledged', async () => (await unacknowledged(bus, prefix)) === 0, 90_000);
      await sink.waitFor('/redeliver', EVENTS, 30_000);
      await waitUntil('every delivery to finish', async () => (await DeliveryModel.query(db).where({ hook_id: 'hk_redeliver' }))
        .every((d) => d.status === 'succeeded'), 30_000);
      await worker.whenIdle();
    } finally {
      await consumer.stop();
      await worker.stop();
      await consumerBus.close();
    }

    const requests = sink.at('/redeliver');
    const perEvent = new Map<string, number>();
    const idsPerEvent = new Map<string, Set<string>>();
    for (const r of requests) {
      const eventId = (JSON.parse(r.body).data.rows as { Name: string }[])[0].Name;
      perEvent.set(eventId, (perEvent.get(eventId) ?? 0) + 1);
      idsPerEvent.set(eventId, (idsPerEvent.get(eventId) ?? new Set()).add(r.headers['webhook-id']));
    }
    process.stdout.write(`hooks redelivery [${bus}]: ${processed.length} of ${EVENTS} events ingested before the kill, ${pendingAtDeath} unacknowledged at the kill; `
      + `requests per event id: ${[...perEvent.values()].join(' ')}\n`);
    expect(Object.fromEntries(eventIds.map((id) => [id, perEvent.get(id) ?? 0]))).toEqual(Object.fromEntries(eventIds.map((id) => [id, 1])));
    expect([...idsPerEvent.values()].every((ids) => ids.size === 1)).toBe(true);
    expect(await DeliveryModel.query(db).where({ hook_id: 'hk_redeliver' })).toHaveLength(EVENTS);
  }, 240_000);
}

describeWithBackend('redis', 'hooks event-id dedupe under a real redelivery [Redis Streams]', () => redeliverySuite('redis'));
describeWithBackend('kafka', 'hooks event-id dedupe under a real redelivery [Kafka]', () => redeliverySuite('kafka'));
