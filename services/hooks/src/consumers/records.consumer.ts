import { topics } from '@tabula/contracts';
import { PUBLISHED_AT_HEADER, defineConsumer, runInMessageContext, type EventMessage } from '@tabula/events';
import { captureTraceContext } from '@tabula/telemetry';
import type { HooksPorts } from '../ports';
import { decodeRecordsEvent, type RecordsEvent } from '../domain/records-event';
import { HOOKS_CONSUMER, ingestEvents } from '../domain/ingest-event';
import { sizeBucket } from '../delivery/stage-metrics';

/** Largest batch of one table's events ingested in one statement. */
const MAX_BATCH = 64;
/** Events accepted at once (several tables' batches; the bus default of 16 would cap one table's batch at 16). */
const MAX_IN_FLIGHT = 256;
/**
 * Under load, wait this long between reads that were not full (Redis bus), so
 * the events of several relay batches come in one read and one XACK: every
 * record event of every table reaches this group, most for tables without
 * hooks. Adds at most this much to a delivery's latency, only while events
 * keep coming.
 */
const LINGER_MS = 10;

/**
 * The trace context deliveries of this message join: its consumer span. A
 * single message is handled inside that span already (the bus opened it); in a
 * batch each message gets its own short consumer span here.
 */
async function consumerTraceContext(message: EventMessage, batched: boolean): Promise<Record<string, string> | null> {
  if (!batched) return captureTraceContext() ?? null;
  let captured: Record<string, string> | undefined;
  await runInMessageContext(message, async () => {
    captured = captureTraceContext();
  });
  return captured ?? null;
}

/** Decodes a message and observes its relay and consumer lag. */
async function toEvent(ports: HooksPorts, message: EventMessage, receivedAt: number, batched: boolean): Promise<RecordsEvent | null> {
  const writtenAt = Date.parse(message.timestamp);
  const publishedAt = Number(message.headers[PUBLISHED_AT_HEADER]);
  if (message.attempt === undefined || message.attempt === 1) {
    if (publishedAt > 0 && writtenAt > 0) ports.stages.relayLag.observe(Math.max(0, publishedAt - writtenAt) / 1000);
    if (publishedAt > 0) ports.stages.consumerLag.observe(Math.max(0, receivedAt - publishedAt) / 1000);
  }
  // The message key is the table id: a table with no active hook (the hook
  // cache's answer, which ingestion would read next) has nothing to schedule,
  // so its event is not decoded at all (rows JSON included).
  if (message.key && (await ports.hookCache.get(message.key)).hooks.length === 0) return null;
  const evt = decodeRecordsEvent(message.payload, message.id);
  if (!evt) return null;
  // Object.assign, not a spread with new properties (V8's slow path: docs/benchmarks.md, fifth pass).
  return Object.assign({}, evt, { traceContext: await consumerTraceContext(message, batched), writtenAt: Number.isNaN(writtenAt) ? undefined : writtenAt });
}

/** Ingests a batch of messages (one table's, in order) in one statement. */
async function ingestMessages(ports: HooksPorts, messages: EventMessage[], batched: boolean): Promise<void> {
  const receivedAt = Date.now();
  const events: RecordsEvent[] = [];
  for (const message of messages) {
    const evt = await toEvent(ports, message, receivedAt, batched);
    if (evt) events.push(evt);
  }
  if (!events.length) return;
  await ingestEvents(ports, events);
  ports.stages.ingest.observe({ size: sizeBucket(events.length) }, (Date.now() - receivedAt) / 1000);
}

/**
 * Consumes `tabula.records` in the fixed group `hooks` (replicas share the
 * work; every event is handled by one of them, idempotently on its id). The
 * events of one table that queue up while its previous batch is ingested are
 * taken together (on every bus).
 */
export const recordsConsumer = defineConsumer<HooksPorts>({
  name: 'hooks.records',
  topics: [topics.records],
  delivery: { kind: 'shared', group: HOOKS_CONSUMER },
  handle: (ports, message) => ingestMessages(ports, [message], false),
  handleBatch: (ports, messages) => ingestMessages(ports, messages, true),
  maxBatch: MAX_BATCH,
  maxInFlight: MAX_IN_FLIGHT,
  lingerMs: LINGER_MS,
});
