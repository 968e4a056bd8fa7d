import type { Knex } from 'knex';
import type { EventBus, EventMessage, OutboxRelay } from '@tabula/events';
import type { ServiceMetrics } from '@tabula/telemetry';

/**
 * The bus as one service sees it, counting what it publishes and consumes:
 * `events_published_total`, `events_publish_failed_total`,
 * `events_consumed_total` and `events_failed_total` (a handler that threw; the
 * message is redelivered). Ephemeral groups are labelled `ephemeral` (their
 * names are unique per process).
 */
export function instrumentBus(bus: EventBus, metrics: ServiceMetrics): EventBus {
  const published = metrics.counter('events_published_total', 'Events published', ['topic', 'type']);
  const publishFailed = metrics.counter('events_publish_failed_total', 'Events whose publish failed (retried by the outbox)', ['topic']);
  const consumed = metrics.counter('events_consumed_total', 'Events handled', ['topic', 'type', 'group']);
  const failed = metrics.counter('events_failed_total', 'Event handler failures (the event is redelivered)', ['topic', 'type', 'group']);
  return {
    async publish(messages) {
      try {
        await bus.publish(messages);
      } catch (err) {
        for (const message of messages) publishFailed.inc({ topic: message.topic });
        throw err;
      }
      for (const message of messages) published.inc({ topic: message.topic, type: message.type });
    },
    subscribe(options) {
      const group = options.ephemeral ? 'ephemeral' : options.group;
      const labels = (message: EventMessage) => ({ topic: message.topic, type: message.type, group });
      return bus.subscribe({
        ...options,
        handler: async (message) => {
          try {
            await options.handler(message);
          } catch (err) {
            failed.inc(labels(message));
            throw err;
          }
          consumed.inc(labels(message));
        },
        handleBatch: options.handleBatch && (async (messages) => {
          try {
            await options.handleBatch!(messages);
          } catch (err) {
            for (const message of messages) failed.inc(labels(message));
            throw err;
          }
          for (const message of messages) consumed.inc(labels(message));
        }),
      });
    },
    ping: () => bus.ping(),
    close: () => bus.close(),
  };
}

interface TarnPool {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
  numPendingCreates(): number;
  max: number;
}

/** `db_pool_connections{pool, state}`: used, free, pending and max connections of each pool, read at scrape time. */
export function observePools(metrics: ServiceMetrics, pools: Record<string, Knex>): void {
  metrics.gauge('db_pool_connections', 'Database pool connections by state (used, free, pending, max)', ['pool', 'state'], (gauge) => {
    for (const [name, knex] of Object.entries(pools)) {
      const pool = (knex.client as { pool?: TarnPool }).pool;
      if (!pool) continue;
      gauge.set({ pool: name, state: 'used' }, pool.numUsed());
      gauge.set({ pool: name, state: 'free' }, pool.numFree());
      gauge.set({ pool: name, state: 'pending' }, pool.numPendingAcquires() + pool.numPendingCreates());
      gauge.set({ pool: name, state: 'max' }, pool.max);
    }
  });
}

/** `outbox_oldest_unsent_age_seconds` and `outbox_unsent_events` of a service's outbox, read at scrape time. */
export function observeOutbox<R extends Pick<OutboxRelay, 'lag' | 'schema'>>(metrics: ServiceMetrics, relay: R): R {
  metrics.gauge('outbox_oldest_unsent_age_seconds', 'Age of the oldest unpublished outbox row (0 when none)', ['schema'], async (gauge) => {
    const lag = await relay.lag().catch(() => undefined);
    if (lag) gauge.set({ schema: relay.schema }, lag.oldestAgeSeconds);
  });
  metrics.gauge('outbox_unsent_events', 'Outbox rows not yet published', ['schema'], async (gauge) => {
    const lag = await relay.lag().catch(() => undefined);
    if (lag) gauge.set({ schema: relay.schema }, lag.unsent);
  });
  return relay;
}
