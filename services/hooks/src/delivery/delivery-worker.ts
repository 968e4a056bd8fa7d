import type { Worker } from '@tabula/runtime';
import type { HooksPorts } from '../ports';
import { claimDue, forgetWorkers, heartbeat, pruneDeliveries, releaseClaims, type Claimer } from '../repositories/delivery.repository';
import { pruneHookLogs } from '../repositories/hook-log.repository';
import { pruneProcessedEvents } from '@tabula/events';
import { HOOKS_SCHEMA } from '../repositories/hooks-db';
import type { ClaimedDelivery, HandOffTarget } from '../adapters/wake';
import { processDelivery, type Known } from './process-delivery';

const DAY_MS = 24 * 3600 * 1000;
const PRUNE_EVERY_MS = 3600 * 1000;
/** A handed-off delivery is only started while its claim lock has at least its timeout plus this left. */
const LOCK_MARGIN_MS = 5000;
/** A handed-off delivery that waited longer than this re-reads its hook before sending. */
const FRESH_HOOK_MS = 1000;

/** How this process claims deliveries (its worker id, and when another worker counts as dead). */
export function claimerOf(ports: Pick<HooksPorts, 'workerId' | 'config'>): Claimer {
  return { workerId: ports.workerId, deadAfterMs: ports.config.SVC_HOOKS_WORKER_TTL_MS };
}

/**
 * Sends deliveries, up to SVC_HOOKS_CONCURRENCY attempts in flight. Fresh
 * deliveries arrive by direct hand-off from the records consumer (already
 * claimed: no poll, no claim round trip) into a bounded queue; the poll every
 * SVC_HOOKS_POLL_MS (and whenever this process scheduled something it could
 * not hand off) claims what is due otherwise: retries, deliveries of other
 * processes that crashed, overflow. Prunes logs past the retention once an hour.
 */
export class DeliveryWorker implements Worker, HandOffTarget {
  private timer?: NodeJS.Timeout;
  private beat?: NodeJS.Timeout;
  /** Attempts not finished (sending, or writing their outcome). */
  private inFlight = new Set<Promise<void>>();
  /** Attempts whose HTTP call is running: SVC_HOOKS_CONCURRENCY bounds these, so slow outcome writes do not hold send slots. */
  private sending = 0;
  /** Send slots a running claim may fill: hand-offs and other claims do not take them meanwhile (the bound holds across the claim's round trip). */
  private reserved = 0;
  private queue: ClaimedDelivery[] = [];
  private ticking = false;
  private again = false;
  private stopped = false;
  private lastPrune = 0;
  /** Deliveries overflowed to the table: no new hand-offs until the poll has caught up (keeps the order roughly first come, first served). */
  private backlog = false;

  constructor(private readonly ports: HooksPorts) {}

  /** Starts polling, takes hand-offs, and subscribes to this process's wake-ups. */
  start(): void {
    this.ports.wake.listen(() => this.kick());
    this.ports.wake.attach(this);
    this.timer = setInterval(() => this.kick(), this.ports.config.SVC_HOOKS_POLL_MS);
    this.timer.unref();
    // The heartbeat says this process is alive, so others wait for its claims instead of taking them over.
    const beat = () => void heartbeat(this.ports.db, this.ports.workerId).catch((err) => this.ports.logger.warn({ err }, 'hook worker heartbeat failed'));
    beat();
    this.beat = setInterval(beat, Math.max(250, Math.floor(this.ports.config.SVC_HOOKS_WORKER_TTL_MS / 3)));
    this.beat.unref();
    this.kick();
  }

  /** Room in the hand-off queue (bounded by SVC_HOOKS_HANDOFF_QUEUE beyond the attempts in flight). */
  room(): number {
    if (this.stopped || this.backlog) return 0;
    return this.ports.config.SVC_HOOKS_CONCURRENCY + this.ports.config.SVC_HOOKS_HANDOFF_QUEUE - this.sending - this.reserved - this.queue.length;
  }

  /** Pending deliveries wait in PostgreSQL: the poll drains them before hand-off resumes. */
  overflowed(): void {
    this.backlog = true;
    this.kick();
  }

  /** Takes claimed deliveries and starts as many as there are free slots. */
  accept(items: ClaimedDelivery[]): void {
    this.queue.push(...items);
    this.pump();
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

  private pump(): void {
    while (this.queue.length && this.freeSlots() > 0) {
      const item = this.queue.shift()!;
      const lockLeft = item.delivery.locked_until ? new Date(item.delivery.locked_until).getTime() - Date.now() : 0;
      // too close to its lock expiry: leave it to the poll, which reclaims it once the lock expires
      if (lockLeft < item.hook.timeout + LOCK_MARGIN_MS) continue;
      const waited = Date.now() - item.scheduledAt;
      this.ports.stages.claimLag.observe({ path: 'handoff' }, Math.max(0, waited) / 1000);
      // the hook row came from the cache at ingestion: after a wait in the queue, read it again (edits, deactivation)
      this.run(item.delivery, waited < FRESH_HOOK_MS ? item : { eventAt: item.eventAt });
    }
  }

  /** Send slots free now: SVC_HOOKS_CONCURRENCY calls at once, and at most four times that many attempts still writing outcomes. */
  private freeSlots(): number {
    const concurrency = this.ports.config.SVC_HOOKS_CONCURRENCY;
    return Math.min(concurrency - this.sending - this.reserved, 4 * concurrency - this.inFlight.size - this.reserved);
  }

  private run(delivery: ClaimedDelivery['delivery'], known?: Known): void {
    let sent = false;
    const onSent = () => {
      if (sent) return;
      sent = true;
      this.sending -= 1;
      if (this.queue.length) this.pump();
      else this.kick();
    };
    this.sending += 1;
    const job = processDelivery(this.ports, delivery, { ...known, onSent })
      .catch((err) => this.ports.logger.error({ err, delivery: delivery.id }, 'hook delivery failed'))
      .finally(() => {
        this.inFlight.delete(job);
        if (!sent) onSent();
        else if (this.queue.length) this.pump();
      });
    this.inFlight.add(job);
  }

  private async tick(): Promise<void> {
    await this.prune();
    this.pump();
    const free = this.freeSlots();
    if (free <= 0 || this.queue.length) return;
    this.reserved = free;
    let claimed: Awaited<ReturnType<typeof claimDue>>;
    try {
      claimed = await claimDue(this.ports.db, free, claimerOf(this.ports));
    } finally {
      this.reserved = 0;
    }
    for (const delivery of claimed) {
      this.ports.stages.claimLag.observe({ path: 'poll' }, Math.max(0, Date.now() - new Date(delivery.next_attempt_at).getTime()) / 1000);
      this.run(delivery);
    }
    if (claimed.length === free) this.again = true;
    else this.backlog = false;
    // Hand-offs that arrived while the claim held every slot (reserved) wait in the queue: start them now, not at the next poll.
    if (this.queue.length) this.pump();
  }

  /** Resolves once no poll is running (tests: a known starting point). */
  async whenIdle(): Promise<void> {
    while (this.ticking) await new Promise((r) => setTimeout(r, 5));
  }

  private async prune(): Promise<void> {
    if (Date.now() - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = Date.now();
    const cutoff = new Date(Date.now() - this.ports.config.SVC_HOOK_LOG_RETENTION_DAYS * DAY_MS);
    await pruneHookLogs(this.ports.db, cutoff);
    await pruneDeliveries(this.ports.db, cutoff);
    await pruneProcessedEvents(this.ports.db, HOOKS_SCHEMA, 7 * DAY_MS);
    await forgetWorkers(this.ports.db, { olderThan: new Date(Date.now() - DAY_MS) });
  }

  /**
   * Stops claiming and waits for attempts in flight. Handed-off deliveries not
   * started yet are given back (pending); after a crash they would stay claimed
   * until their lock expires, then a poll reclaims them.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    this.ports.wake.attach(undefined);
    if (this.timer) clearInterval(this.timer);
    const unstarted = this.queue.splice(0).map((item) => item.delivery.id);
    await releaseClaims(this.ports.db, unstarted).catch((err) => this.ports.logger.warn({ err }, 'could not release handed-off deliveries; their locks expire'));
    while (this.ticking || this.inFlight.size) {
      await Promise.allSettled([...this.inFlight]);
      await new Promise((r) => setTimeout(r, 5));
    }
    if (this.beat) clearInterval(this.beat);
    await forgetWorkers(this.ports.db, { workerId: this.ports.workerId }).catch(() => undefined);
  }
}
