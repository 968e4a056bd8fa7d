import { randomUUID } from 'node:crypto';
import { createClient } from 'redis';
import type { BusLogger, EventBus, EventMessage, PublishInput, SubscribeOptions, Subscription } from './event-bus';
import { backoffMs, runInTraceContext, sleep, toMessage } from './envelope';

type Client = ReturnType<typeof createClient>;
type StreamEntry = { id: string; message: Record<string, string> };

export interface RedisBusOptions {
  url: string;
  clientId: string;
  /** Approximate cap of each stream's length. */
  maxLen?: number;
  /** A message pending this long on a dead consumer is claimed by a live one. */
  claimIdleMs?: number;
  blockMs?: number;
}

function encode(message: EventMessage): Record<string, string> {
  return {
    id: message.id, key: message.key, type: message.type, version: String(message.version), timestamp: message.timestamp,
    headers: JSON.stringify(message.headers), payload: Buffer.from(message.payload).toString('base64'),
  };
}

function decode(topic: string, fields: Record<string, string>): EventMessage {
  return {
    id: fields.id, topic, key: fields.key, type: fields.type, version: Number(fields.version ?? 1), timestamp: fields.timestamp,
    headers: JSON.parse(fields.headers ?? '{}'), payload: new Uint8Array(Buffer.from(fields.payload ?? '', 'base64')),
  };
}

/**
 * Redis Streams: one stream per topic, consumer groups, XACK after the handler
 * succeeds, and XAUTOCLAIM of messages a dead consumer left pending. A failing
 * handler is retried in place (with backoff) so order holds within a stream.
 */
export class RedisEventBus implements EventBus {
  private readonly commands: Client;
  private connected?: Promise<unknown>;
  private readonly subscriptions = new Set<Subscription>();

  constructor(private readonly options: RedisBusOptions, private readonly logger: BusLogger) {
    this.commands = createClient({ url: options.url });
    this.commands.on('error', (err) => logger.warn({ err: String(err) }, 'redis bus connection error'));
  }

  private async ready(): Promise<Client> {
    this.connected ??= this.commands.connect();
    await this.connected;
    return this.commands;
  }

  async publish(messages: PublishInput[]): Promise<void> {
    const client = await this.ready();
    const multi = client.multi();
    for (const input of messages) {
      multi.xAdd(input.topic, '*', encode(toMessage(input)), {
        TRIM: { strategy: 'MAXLEN', strategyModifier: '~', threshold: this.options.maxLen ?? 100_000 },
      });
    }
    await multi.exec();
  }

  async subscribe(options: SubscribeOptions): Promise<Subscription> {
    const client = await this.ready();
    for (const topic of options.topics) {
      try {
        await client.xGroupCreate(topic, options.group, options.fromBeginning === false ? '$' : '0', { MKSTREAM: true });
      } catch (err) {
        if (!String((err as Error).message).includes('BUSYGROUP')) throw err;
      }
    }
    const reader = this.commands.duplicate();
    reader.on('error', (err) => this.logger.warn({ err: String(err) }, 'redis bus reader error'));
    await reader.connect();
    const consumer = new StreamConsumer(reader, client, options, this.options, this.logger);
    const loop = consumer.run();
    const close = async () => {
      consumer.stop();
      await loop;
      await reader.quit().catch(() => undefined);
      this.subscriptions.delete(subscription);
    };
    const subscription: Subscription = { close, stop: close };
    this.subscriptions.add(subscription);
    return subscription;
  }

  async ping(): Promise<void> {
    const client = await this.ready();
    await client.ping();
  }

  async close(): Promise<void> {
    for (const subscription of [...this.subscriptions]) await subscription.close();
    if (this.connected) await this.commands.quit().catch(() => undefined);
  }
}

/** The read loop of one subscription. */
class StreamConsumer {
  private stopped = false;
  private readonly name = `c-${randomUUID()}`;
  private lastClaim = 0;

  constructor(
    private readonly reader: Client,
    private readonly commands: Client,
    private readonly options: SubscribeOptions,
    private readonly bus: RedisBusOptions,
    private readonly logger: BusLogger,
  ) {}

  stop(): void {
    this.stopped = true;
  }

  async run(): Promise<void> {
    while (!this.stopped) {
      try {
        await this.claimAbandoned();
        const streams = this.options.topics.map((key) => ({ key, id: '>' }));
        const batch = await this.reader.xReadGroup(this.options.group, this.name, streams, { COUNT: 100, BLOCK: this.bus.blockMs ?? 500 });
        for (const stream of (batch ?? []) as { name: string; messages: StreamEntry[] }[]) {
          for (const entry of stream.messages) await this.handle(stream.name, entry);
        }
      } catch (err) {
        if (this.stopped) break;
        this.logger.warn({ err: String(err), group: this.options.group }, 'redis bus read failed; retrying');
        await sleep(500);
      }
    }
  }

  private async claimAbandoned(): Promise<void> {
    const idle = this.bus.claimIdleMs ?? 30_000;
    if (Date.now() - this.lastClaim < Math.min(idle, 5_000)) return;
    this.lastClaim = Date.now();
    for (const topic of this.options.topics) {
      const claimed = await this.commands.xAutoClaim(topic, this.options.group, this.name, idle, '0-0', { COUNT: 100 });
      for (const entry of (claimed?.messages ?? []) as (StreamEntry | null)[]) if (entry) await this.handle(topic, entry);
    }
  }

  private async handle(topic: string, entry: StreamEntry): Promise<void> {
    const message = decode(topic, entry.message);
    for (let attempt = 0; ; attempt += 1) {
      try {
        await runInTraceContext(this.options.handler, message);
        await this.commands.xAck(topic, this.options.group, entry.id);
        return;
      } catch (err) {
        // Stopping leaves it pending: another consumer claims it (at least once).
        if (this.stopped) return;
        this.logger.warn({ err, group: this.options.group, eventId: message.id, attempt }, 'event handler failed; redelivering');
        await sleep(backoffMs(attempt));
      }
    }
  }
}
