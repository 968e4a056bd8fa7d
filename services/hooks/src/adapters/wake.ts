import type { DeliveryRow } from '../repositories/delivery.repository';
import type { HookRow } from '../repositories/hook.repository';

/** A delivery this process already claimed, with the hook it was planned for. */
export interface ClaimedDelivery {
  delivery: DeliveryRow;
  hook: HookRow;
  /** When it was scheduled (ms), for the claim-lag metric. */
  scheduledAt: number;
  /** When its records event was written (ms), for the end-to-end metric. */
  eventAt?: number;
}

/** What the delivery worker offers the records consumer: room in its hand-off queue, and the queue. */
export interface HandOffTarget {
  room(): number;
  accept(items: ClaimedDelivery[]): void;
  /** Deliveries were stored pending for lack of room: the poll should take them before new hand-offs. */
  overflowed(): void;
}

/**
 * In-process signals to the delivery worker: "deliveries were scheduled" (send
 * without waiting for the next poll), and direct hand-off of deliveries the
 * consumer inserted already claimed.
 */
export class Wake {
  private readonly listeners = new Set<() => void>();
  private target: HandOffTarget | undefined;

  /** Registers a listener. */
  listen(listener: () => void): void {
    this.listeners.add(listener);
  }

  /** Notifies every listener. */
  kick(): void {
    for (const listener of this.listeners) listener();
  }

  /** The worker taking handed-off deliveries (undefined: none, everything goes through the poll). */
  attach(target: HandOffTarget | undefined): void {
    this.target = target;
  }

  /** How many more deliveries the worker takes directly now (0 without a worker). */
  room(): number {
    return this.target ? Math.max(0, this.target.room()) : 0;
  }

  /** Tells the worker deliveries were stored pending although hand-off was wanted (no room). */
  overflowed(): void {
    this.target?.overflowed();
  }

  /** Hands claimed deliveries to the worker. */
  handOff(items: ClaimedDelivery[]): void {
    if (!items.length) return;
    if (!this.target) throw new Error('no delivery worker to hand off to');
    this.target.accept(items);
  }
}
