import type { EventBus, EventMessage, PublishInput, SubscribeOptions, Subscription } from './event-bus';
import { fallbackLogger } from './logger';
import type { NamespaceOptions } from './bus-options';

/** Implemented by adapters whose groups outlive the process (Redis Streams, Kafka). */
export interface GroupExpiry {
  /**
   * Destroys the groups on `topics` whose name starts with `groupPrefix`, that were
   * created more than `idleMs` ago (creation time is part of the name) and have
   * had no consumer activity for `idleMs`. Returns the destroyed group names.
   */
  expireGroups(topics: string[], groupPrefix: string, idleMs: number): Promise<string[]>;
}

export type { NamespaceOptions } from './bus-options';

const EPHEMERAL = 'ephemeral';

/**
 * Gives one deployment its own names on a shared Redis or Kafka. Code publishes
 * and subscribes with logical topics (`records`, `auth`) and group names; on the
 * broker they are `<prefix>.records` and `<prefix>.<group>`, so two deployments
 * with different prefixes never read each other's events. Ephemeral groups are
 * named `<prefix>.ephemeral.<created, base 36>.<group>`: their subscription
 * destroys them on close, and any live process of the deployment destroys those
 * whose process died (idle past the TTL) on its periodic sweep.
 */
export class NamespacedEventBus implements EventBus {
  private readonly ttlMs: number;
  private readonly topicsSeen = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<string[]> | undefined;

  constructor(private readonly inner: EventBus & Partial<GroupExpiry>, private readonly options: NamespaceOptions) {
    this.ttlMs = options.ephemeralGroupTtlMs ?? 15 * 60_000;
  }

  /** The broker name of a logical topic. */
  topicName(topic: string): string {
    return `${this.options.prefix}.${topic}`;
  }

  async publish(messages: PublishInput[]): Promise<void> {
    for (const message of messages) this.topicsSeen.add(message.topic);
    await this.inner.publish(messages.map((message) => ({ ...message, topic: this.topicName(message.topic) })));
  }

  async subscribe(options: SubscribeOptions): Promise<Subscription> {
    const byName = new Map(options.topics.map((topic) => [this.topicName(topic), topic]));
    options.topics.forEach((topic) => this.topicsSeen.add(topic));
    const group = options.ephemeral
      ? `${this.options.prefix}.${EPHEMERAL}.${Date.now().toString(36)}.${options.group}`
      : `${this.options.prefix}.${options.group}`;
    const subscription = await this.inner.subscribe({
      ...options,
      group,
      topics: [...byName.keys()],
      ephemeralTtlMs: options.ephemeral ? this.ttlMs : undefined,
      handler: (message: EventMessage) => options.handler({ ...message, topic: byName.get(message.topic) ?? message.topic }),
      handleBatch: options.handleBatch && ((messages: EventMessage[]) => options.handleBatch!(messages.map((message) => ({ ...message, topic: byName.get(message.topic) ?? message.topic })))),
    });
    this.startSweeping();
    return subscription;
  }

  ping(): Promise<void> {
    return this.inner.ping();
  }

  async ensureTopics(topics: string[]): Promise<void> {
    topics.forEach((topic) => this.topicsSeen.add(topic));
    await this.inner.ensureTopics?.(topics.map((topic) => this.topicName(topic)));
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.sweeping?.catch(() => undefined);
    await this.inner.close();
  }

  /** Destroys this deployment's abandoned ephemeral groups on the topics this process uses; returns their names. */
  expireAbandonedGroups(): Promise<string[]> {
    if (!this.inner.expireGroups) return Promise.resolve([]);
    this.sweeping ??= this.inner
      .expireGroups([...this.topicsSeen].map((topic) => this.topicName(topic)), `${this.options.prefix}.${EPHEMERAL}.`, this.ttlMs)
      .then((destroyed) => {
        if (destroyed.length) (this.options.logger ?? fallbackLogger).info({ groups: destroyed }, 'destroyed abandoned ephemeral consumer groups');
        return destroyed;
      })
      .finally(() => { this.sweeping = undefined; });
    return this.sweeping;
  }

  private startSweeping(): void {
    if (this.timer || !this.inner.expireGroups) return;
    const every = this.options.sweepIntervalMs ?? Math.min(this.ttlMs / 4, 5 * 60_000);
    // Jitter, so the processes of a deployment do not all sweep at the same moment.
    this.timer = setInterval(() => {
      this.expireAbandonedGroups().catch((err) => (this.options.logger ?? fallbackLogger).warn({ err }, 'ephemeral group sweep failed'));
    }, every * (0.75 + Math.random() / 2));
    this.timer.unref();
  }
}

/** Creation time (ms) encoded in an ephemeral group's name, or undefined when the name is not one. */
export function ephemeralGroupCreatedAt(group: string, groupPrefix: string): number | undefined {
  if (!group.startsWith(groupPrefix)) return undefined;
  const stamp = group.slice(groupPrefix.length).split('.')[0];
  const ms = parseInt(stamp, 36);
  return /^[0-9a-z]+$/.test(stamp) && Number.isFinite(ms) ? ms : undefined;
}
