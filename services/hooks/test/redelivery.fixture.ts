import type { Knex } from 'knex';
import { Registry } from 'prom-client';
import { createEventBus, type EventBus } from '@tabula/events';
import { createSafeAgent } from '@tabula/http';
import { AtRestRing } from '@tabula/runtime';
import { createServiceMetrics } from '@tabula/telemetry';
import type { HooksPorts } from '../src/ports';
import { HookCache } from '../src/cache/hook-cache';
import { Completions } from '../src/delivery/completions';
import { stageMetrics } from '../src/delivery/stage-metrics';
import { Wake } from '../src/adapters/wake';

/**
 * What the redelivery fault run (ingest-redelivery.test.ts) and its crashing
 * consumer (crash-after-ingest.main.ts) share: the hooks ports on a test
 * database and a real bus (Redis Streams or Kafka) under a topic prefix of the run.
 */
export type RunBus = 'redis' | 'kafka';

export const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };
export const box = new AtRestRing('tabula-hook-secrets', ['test-ring-key-for-the-redelivery-tests-0123456']);
export const TABLE = 'tbl_redeliver';

/** The run's bus: a dead member's pending entries are reclaimed after 1 s (Redis), its partitions after 6 s (Kafka). */
export function runBus(kind: RunBus, prefix: string, clientId: string): EventBus {
  return createEventBus({
    kind, clientId, logger: quiet, namespace: { prefix },
    ...(kind === 'redis'
      ? { redisUrl: process.env.REDIS_URL, redis: { claimIdleMs: 1000, claimIntervalMs: 250, blockMs: 500 } }
      : { kafkaBrokers: (process.env.KAFKA_BROKERS ?? '').split(','), kafka: { sessionTimeout: 6000, allowAutoTopicCreation: true } }),
  });
}

/** Hooks ports on `db` and `bus`; `wake` decides what happens once an ingestion has committed. */
export function runPorts(db: Knex, bus: EventBus, wake: Wake): HooksPorts {
  const config = {
    SVC_ALLOW_LOCAL_HOOKS: true, SVC_HOOK_LOG_RETENTION_DAYS: 30, SVC_HOOKS_POLL_MS: 100, SVC_HOOKS_CONCURRENCY: 8,
    SVC_HOOKS_HANDOFF_QUEUE: 64, SVC_HOOKS_CONNECTIONS_PER_TARGET: 4, SVC_HOOKS_CACHE_TABLES: 100, SVC_HOOKS_CACHE_TTL_MS: 60_000,
    SVC_HOOKS_WORKER_TTL_MS: 15_000,
  };
  const hookCache = new HookCache(db, { maxTables: 100, ttlMs: 60_000 });
  hookCache.setEnabled(true);
  return {
    db, bus, config, workerId: `redelivery-${process.pid}-${Math.random().toString(36).slice(2, 8)}`, logger: quiet, box, wake, agent: createSafeAgent(true, { connections: 4 }), hookCache,
    completions: new Completions(db), stages: stageMetrics(new Registry()), metrics: createServiceMetrics('hooks-redelivery-test'),
  } as unknown as HooksPorts;
}
