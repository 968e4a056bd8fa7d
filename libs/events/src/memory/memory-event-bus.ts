import type { EventBus, EventBusConfig, EventLogger, EventMessage, PublishInput, SubscribeOptions, Subscription } from '../event-bus';
import { fromEnvelope, toEnvelope } from '../envelope';
import { defaultBackoff } from '../delivery/retry';
import { fallbackLogger } from '../logger';
import { MemoryGroup } from './memory-group';

/**
 * The in-process bus of standalone mode. It behaves like a broker: groups keep
 * their queue while they have no member, a new group with `fromBeginning` starts
 * from the last `memoryRetention` messages of each topic, delivery is
 * asynchronous and at least once (a failing handler is retried). Nothing
 * survives a restart, which is why durable events go through the outbox first.
 */
export class MemoryEventBus implements EventBus {
  private readonly logger: EventLogger;
  private readonly groups = new Map<string, MemoryGroup>();
  private readonly retained = new Map<string, EventMessage[]>();
  private readonly subscriptions = new Set<Subscription>();
  private readonly retention: number;
  private sequence = 0;
  private closed = false;

  constructor(private readonly config: EventBusConfig) {
    this.logger = config.logger ?? fallbackLogger;
    this.retention = config.memoryRetention ?? 1000;
  }

  async publish(messages: PublishInput[]): Promise<void> {
    this.assertOpen();
    for (const input of messages) {
      const message = fromEnvelope(toEnvelope(input, this.config.clientId), String(++this.sequence));
      this.retain(message);
      for (const group of this.groups.values()) {
        if (group.topics.has(message.topic)) group.enqueue(message);
      }
    }
  }

  async subscribe(options: SubscribeOptions): Promise<Subscription> {
    this.assertOpen();
    const group = this.groupFor(options);
    const leave = group.join(options.handler, options.handleBatch, options.maxBatch, options.maxInFlight, options.ordered !== false);
    const subscription: Subscription = {
      close: async () => {
        if (!this.subscriptions.delete(subscription)) return;
        await leave();
        if (options.ephemeral && group.isEmpty() && this.groups.get(options.group) === group) {
          group.dispose();
          this.groups.delete(options.group);
        }
      },
    };
    this.subscriptions.add(subscription);
    return subscription;
  }

  async ping(): Promise<void> {
    this.assertOpen();
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.subscriptions].map((subscription) => subscription.close()));
    for (const group of this.groups.values()) group.dispose();
  }

  private groupFor(options: SubscribeOptions): MemoryGroup {
    let group = this.groups.get(options.group);
    if (!group) {
      const delivery = { logger: this.logger, backoff: { ...defaultBackoff, ...this.config.retry } };
      group = new MemoryGroup(delivery, this.config.maxInFlight ?? 16);
      this.groups.set(options.group, group);
    }
    for (const topic of options.topics) {
      if (group.topics.has(topic)) continue;
      group.topics.add(topic);
      // Like a broker's committed offsets: only a topic new to the group starts at the beginning.
      if (options.fromBeginning !== false) (this.retained.get(topic) ?? []).slice(-this.retention).forEach((message) => group.enqueue(message));
    }
    return group;
  }

  private retain(message: EventMessage): void {
    const log = this.retained.get(message.topic) ?? [];
    log.push(message);
    // Trimmed in chunks (a splice per publish would shift the whole log each time); readers take the last `retention`.
    if (log.length >= 2 * this.retention) log.splice(0, log.length - this.retention);
    this.retained.set(message.topic, log);
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('event bus is closed');
  }
}
