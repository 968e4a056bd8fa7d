import type { Worker } from '@tabula/runtime';
import type { HooksPorts } from '../ports';
import { claimDue, pruneDeliveries } from '../repositories/delivery.repository';
import { pruneHookLogs } from '../repositories/hook-log.repository';
import { pruneProcessedEvents } from '@tabula/events';
import { HOOKS_SCHEMA } from '../repositories/hooks-db';
import { processDelivery } from './process-delivery';

const DAY_MS = 24 * 3600 * 1000;
const PRUNE_EVERY_MS = 3600 * 1000;

/**
 * Sends due deliveries: polls PostgreSQL every SVC_HOOKS_POLL_MS (and whenever
 * this process scheduled something), keeps up to SVC_HOOKS_CONCURRENCY
 * attempts in flight, and prunes logs past the retention once an hour.
 */
export class DeliveryWorker implements Worker {
  private timer?: NodeJS.Timeout;
  private inFlight = new Set<Promise<void>>();
  private ticking = false;
  private again = false;
  private stopped = false;
  private lastPrune = 0;

  constructor(private readonly ports: HooksPorts) {}

  /** Starts polling and subscribes to this process's wake-ups. */
  start(): void {
    this.ports.wake.listen(() => this.kick());
    this.timer = setInterval(() => this.kick(), this.ports.config.SVC_HOOKS_POLL_MS);
    this.timer.unref();
    this.kick();
  }

  /** Looks for due deliveries now. */
  kick(): void {
    if (this.stopped) return;
    if (this.ticking) {
      this.again = true;
      return;
    }
    this.ticking = true;
    void this.tick().catch((err) => this.ports.logger.error({ err }, 'hook delivery tick failed')).finally(() => {
      this.ticking = false;
      if (this.again && !this.stopped) {
        this.again = false;
        this.kick();
      }
    });
  }

  private async tick(): Promise<void> {
    await this.prune();
    const free = this.ports.config.SVC_HOOKS_CONCURRENCY - this.inFlight.size;
    if (free <= 0) return;
    const claimed = await claimDue(this.ports.db, free);
    for (const delivery of claimed) {
      const job = processDelivery(this.ports, delivery)
        .catch((err) => this.ports.logger.error({ err, delivery: delivery.id }, 'hook delivery failed'))
        .finally(() => {
          this.inFlight.delete(job);
          this.kick();
        });
      this.inFlight.add(job);
    }
    if (claimed.length === free) this.again = true;
  }

  private async prune(): Promise<void> {
    if (Date.now() - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = Date.now();
    const cutoff = new Date(Date.now() - this.ports.config.SVC_HOOK_LOG_RETENTION_DAYS * DAY_MS);
    await pruneHookLogs(this.ports.db, cutoff);
    await pruneDeliveries(this.ports.db, cutoff);
    await pruneProcessedEvents(this.ports.db, HOOKS_SCHEMA, 7 * DAY_MS);
  }

  /** Stops claiming and waits for attempts in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    while (this.ticking || this.inFlight.size) {
      await Promise.allSettled([...this.inFlight]);
      await new Promise((r) => setTimeout(r, 5));
    }
  }
}
