import type { EventHandler, EventMessage, BatchHandler } from '../event-bus';
import { KeyedRunner } from '../delivery/keyed-runner';
import type { DeliveryOptions } from '../delivery/retry';

interface Member {
  runner: KeyedRunner;
  /** Keys with messages at this member, and how many: those keys stay with it (order). */
  owned: Map<string, number>;
  leaving: boolean;
}

/**
 * One consumer group of the in-process bus: a queue of messages not yet handed
 * to a member, and its members. A key sticks to the member that has its earlier
 * messages until they are done, so per-key order holds across members too.
 */
export class MemoryGroup {
  readonly topics = new Set<string>();
  private queue: EventMessage[] = [];
  private readonly members: Member[] = [];
  private nextMember = 0;
  private scheduled: NodeJS.Immediate | undefined;

  constructor(private readonly delivery: Omit<DeliveryOptions, 'signal' | 'handler'>, private readonly maxInFlight: number) {}

  /** Adds a message; delivery happens on a later tick, never inside `publish`. */
  enqueue(message: EventMessage): void {
    this.queue.push(message);
    this.schedule();
  }

  /**
   * Adds a member running `handler`; returns its leave function (waits for its
   * in-flight handlers). `ordered: false` runs one key's messages concurrently.
   */
  join(handler: EventHandler, batchHandler?: BatchHandler, maxBatch?: number, maxInFlight?: number, ordered = true): () => Promise<void> {
    const owned = new Map<string, number>();
    const runner = new KeyedRunner({
      delivery: { ...this.delivery, handler },
      batchHandler,
      maxBatch,
      maxInFlight: maxInFlight ?? this.maxInFlight,
      onProcessed: (message) => release(owned, message.key),
      onSettled: () => this.schedule(),
      orderKey: ordered ? undefined : (message) => message.id,
    });
    const member: Member = { owned, runner, leaving: false };
    this.members.push(member);
    this.schedule();
    return () => this.leave(member);
  }

  /** True when no member is subscribed. */
  isEmpty(): boolean {
    return this.members.length === 0;
  }

  /** Stops delivery timers; called when the bus closes (members have left). */
  dispose(): void {
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = undefined;
  }

  private async leave(member: Member): Promise<void> {
    member.leaving = true;
    const givenBack = await member.runner.close();
    this.members.splice(this.members.indexOf(member), 1);
    // These precede anything still queued for their keys, which waited for this member.
    this.queue.unshift(...givenBack);
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled || this.queue.length === 0) return;
    this.scheduled = setImmediate(() => {
      this.scheduled = undefined;
      this.pump();
    });
  }

  private pump(): void {
    const waiting: EventMessage[] = [];
    const blockedKeys = new Set<string>();
    for (const message of this.queue) {
      const member = blockedKeys.has(message.key) ? undefined : this.pick(message.key);
      if (!member) {
        // Later messages of this key must not overtake this one.
        blockedKeys.add(message.key);
        waiting.push(message);
        continue;
      }
      member.owned.set(message.key, (member.owned.get(message.key) ?? 0) + 1);
      member.runner.dispatch(message);
    }
    this.queue = waiting;
  }

  /** The member owning the key, else the next member with free capacity (round robin). */
  private pick(key: string): Member | undefined {
    const owner = this.members.find((member) => member.owned.has(key));
    if (owner) return !owner.leaving && owner.runner.hasCapacity() ? owner : undefined;
    for (let i = 0; i < this.members.length; i++) {
      const member = this.members[(this.nextMember + i) % this.members.length];
      if (!member.leaving && member.runner.hasCapacity()) {
        this.nextMember = (this.nextMember + i + 1) % this.members.length;
        return member;
      }
    }
    return undefined;
  }
}

function release(owned: Map<string, number>, key: string): void {
  const left = (owned.get(key) ?? 1) - 1;
  if (left > 0) owned.set(key, left);
  else owned.delete(key);
}
