import { Histogram, type Registry } from 'prom-client';

const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** Where a hook delivery's time goes (docs/cluster.md "Metrics"). */
export interface StageMetrics {
  /** Outbox row written → published to the bus (the publisher's relay). */
  relayLag: Histogram;
  /** Published → the hooks consumer has it. */
  consumerLag: Histogram;
  /** Consumer has the event → its deliveries committed (batch ingestion). */
  ingest: Histogram<'size'>;
  /** Delivery scheduled (committed, or due for a retry) → attempt starts; `path` = hand-off or poll. */
  claimLag: Histogram<'path'>;
  /** The HTTP call to the target. */
  send: Histogram;
  /** Event written → the target answered (first attempts only). */
  endToEnd: Histogram;
}

function histogram<L extends string>(registry: Registry, name: string, help: string, labelNames: L[] = []): Histogram<L> {
  return (registry.getSingleMetric(name) as Histogram<L> | undefined)
    ?? new Histogram<L>({ name, help, labelNames, buckets: BUCKETS, registers: [registry] });
}

/** The hooks stage histograms in a service registry (created once per registry). */
export function stageMetrics(registry: Registry): StageMetrics {
  return {
    relayLag: histogram(registry, 'hook_event_relay_lag_seconds', 'Records event written to the outbox → published on the bus'),
    consumerLag: histogram(registry, 'hook_event_consumer_lag_seconds', 'Records event published → received by the hooks consumer'),
    ingest: histogram(registry, 'hook_ingest_seconds', 'Hooks consumer: event batch received → deliveries committed', ['size']),
    claimLag: histogram(registry, 'hook_claim_lag_seconds', 'Delivery scheduled or due → attempt started, by path (handoff, poll)', ['path']),
    send: histogram(registry, 'hook_send_seconds', 'HTTP call to the hook target (attempt duration)'),
    endToEnd: histogram(registry, 'hook_delivery_lag_seconds', 'Records event written → first attempt answered'),
  };
}

/** The batch-size label: 1, 2-9, 10-99, 100+. */
export function sizeBucket(n: number): string {
  return n <= 1 ? '1' : n < 10 ? '2-9' : n < 100 ? '10-99' : '100+';
}
