import type { BusLogger, EventBus, EventHandler, EventMessage, PublishInput, SubscribeOptions, Subscription } from './event-bus';
import { backoffMs, runInTraceContext, sleep, toMessage } from './envelope';

interface Group {
  name: string;
  topics: Set<string>;
  members: EventHandler[];
  next: number;
  queue: EventMessage[];
  draining?: Promise<void>;
}

/**
 * Standalone mode's bus: per consumer group an in-process queue drained on later
 * ticks, in publish order. A failing handler gets the message again after a
 * backoff (the group waits, so order holds). Nothing survives the process: the
 * outbox tables are what make events durable.
 */
export class MemoryEventBus implements EventBus {
  private readonly groups = new Map<string, Group>();
  private closed = false;

  constructor(private readonly logger: BusLogger) {}

  async publish(messages: PublishInput[]): Promise<void> {
    if (this.closed) throw new Error('event bus closed');
    for (const input of messages) {
      const message = toMessage(input);
      for (const group of this.groups.values()) {
        if (!group.topics.has(message.topic) || group.members.length === 0) continue;
        group.queue.push(message);
        this.drain(group);
      }
    }
  }

  async subscribe(options: SubscribeOptions): Promise<Subscription> {
    let group = this.groups.get(options.group);
    if (!group) {
      group = { name: options.group, topics: new Set(), members: [], next: 0, queue: [] };
      this.groups.set(options.group, group);
    }
    for (const topic of options.topics) group.topics.add(topic);
    group.members.push(options.handler);
    const target = group;
    const close = async () => {
      target.members = target.members.filter((h) => h !== options.handler);
      if (target.members.length === 0) target.queue.length = 0;
      await target.draining;
    };
    return { close, stop: close };
  }

  async ping(): Promise<void> {
    if (this.closed) throw new Error('event bus closed');
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const group of this.groups.values()) {
      group.members = [];
      group.queue.length = 0;
      await group.draining;
    }
  }

  private drain(group: Group): void {
    if (group.draining) return;
    group.draining = (async () => {
      await sleep(0);
      while (group.queue.length > 0 && group.members.length > 0) {
        await this.deliver(group, group.queue[0]);
        group.queue.shift();
      }
    })().finally(() => { group.draining = undefined; if (group.queue.length && group.members.length) this.drain(group); });
  }

  private async deliver(group: Group, message: EventMessage): Promise<void> {
    for (let attempt = 0; group.members.length > 0; attempt += 1) {
      const handler = group.members[group.next++ % group.members.length];
      try {
        await runInTraceContext(handler, message);
        return;
      } catch (err) {
        this.logger.warn({ err, group: group.name, eventId: message.id, type: message.type, attempt }, 'event handler failed; redelivering');
        await sleep(backoffMs(attempt));
      }
    }
  }
}
