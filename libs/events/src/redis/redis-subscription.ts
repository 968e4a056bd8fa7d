import { RESP_TYPES } from 'redis';
import type { EventHandler, EventLogger, EventMessage, Subscription, BatchHandler } from '../event-bus';
import { KeyedRunner } from '../delivery/keyed-runner';
import { backoffDelay, sleep } from '../delivery/retry';
import type { BackoffOptions } from '../delivery/retry';
import { settlesWithin } from '../delivery/with-timeout';
import { fromStreamEntry } from './redis-codec';
import type { RawStreamEntry } from './redis-codec';
import type { RedisBusOptions } from '../bus-options';
import { destroyGroups, ensureGroups, removeConsumerIfIdle } from './redis-groups';
import type { RedisClient } from './redis-groups';

/** Everything one subscription needs; built by RedisEventBus.subscribe. */
export interface RedisSubscriptionDeps {
  /** Shared connection for XACK, XAUTOCLAIM, XCLAIM, CLIENT UNBLOCK. */
  commands: RedisClient;
  /** This subscription's own connection: XREADGROUP BLOCK would stall every other command. */
  reader: RedisClient;
  readerId: number;
  group: string;
  consumer: string;
  /** Stream key -> topic. */
  streams: Map<string, string>;
  handler: EventHandler;
  /** Optional batch form of the handler (SubscribeOptions.handleBatch). */
  handleBatch?: BatchHandler;
  maxBatch?: number;
  logger: EventLogger;
  backoff: BackoffOptions;
  maxInFlight: number;
  options: RedisBusOptions;
  /** XGROUP DESTROY on close (per-process broadcast groups). */
  ephemeral: boolean;
  /** false: no per-key order, messages of one key run concurrently (SubscribeOptions.ordered). */
  ordered?: boolean;
  /** Wait before the next read after one that found fewer entries than it asked for (SubscribeOptions.lingerMs). */
  lingerMs?: number;
  /** Ephemeral groups: the key refreshed while this subscription lives, so no other process expires the group. */
  alive?: { key: string; ttlMs: number };
}

/**
 * One member of a Redis Streams consumer group. A read loop fetches new entries
 * (`>`) and hands them to a KeyedRunner, which XACKs after the handler
 * succeeds. Entries left pending by a dead member are taken over with XAUTOCLAIM
 * once idle for `claimIdleMs`; entries this member is still working on (slow
 * handler, retries) are re-claimed by it periodically so their idle time never
 * reaches that threshold and nobody else takes them.
 */
export class RedisSubscription implements Subscription {
  private readonly runner: KeyedRunner;
  private readonly abort = new AbortController();
  private readonly inFlight = new Map<string, Set<string>>();
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly reading: Promise<void>;
  private maintenance: Promise<void> = Promise.resolve();
  private maintenanceRunning = false;
  private closing: Promise<void> | undefined;
  /** Handled messages waiting for this turn's XACK, per stream (see ack), and the XACKs under way. */
  private readonly pendingAcks = new Map<string, EventMessage[]>();
  private readonly acking = new Set<Promise<void>>();
  private ackScheduled = false;

  constructor(private readonly deps: RedisSubscriptionDeps) {
    this.runner = new KeyedRunner({
      delivery: { handler: deps.handler, logger: deps.logger, backoff: deps.backoff },
      batchHandler: deps.handleBatch,
      maxBatch: deps.maxBatch,
      maxInFlight: deps.maxInFlight,
      onProcessed: (message) => this.ack(message),
      orderKey: deps.ordered === false ? (message) => message.offset ?? message.id : undefined,
    });
    this.reading = this.readLoop();
    const { claimIntervalMs, claimIdleMs } = deps.options;
    this.timers.push(setInterval(() => this.runMaintenance(() => this.claimIdle()), claimIntervalMs));
    this.timers.push(setInterval(() => this.runMaintenance(() => this.touchInFlight()), Math.max(50, claimIdleMs / 3)));
    const alive = deps.alive;
    if (alive) {
      this.timers.push(setInterval(() => this.runMaintenance(async () => {
        await deps.commands.set(alive.key, '1', { PX: alive.ttlMs });
      }), Math.max(50, alive.ttlMs / 3)));
    }
  }

  /** Stops reading, waits for running handlers, leaves unfinished entries pending for another member. */
  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    this.abort.abort();
    this.timers.forEach((timer) => clearInterval(timer));
    await this.interruptRead();
    await this.maintenance;
    const givenBack = await this.runner.close();
    givenBack.forEach((message) => this.forget(message));
    await this.drainAcks();
    const { commands, streams, group, consumer, logger } = this.deps;
    if (this.deps.ephemeral) await destroyGroups(commands, [...streams.keys()], group, logger);
    if (this.deps.alive) await commands.del(this.deps.alive.key).catch(() => undefined);
    else await removeConsumerIfIdle(commands, [...streams.keys()], group, consumer, logger);
    await this.deps.reader.close().catch(() => this.deps.reader.destroy());
  }

  private async readLoop(): Promise<void> {
    const { reader, group, consumer, streams, options } = this.deps;
    const lingerMs = this.deps.lingerMs ?? 0;
    const bufferReader = reader.withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer });
    const keys = [...streams.keys()].map((key) => ({ key, id: '>' }));
    for (let failures = 0; !this.abort.signal.aborted; ) {
      await this.runner.waitForCapacity();
      if (this.abort.signal.aborted) return;
      try {
        const count = Math.min(options.batchSize, this.deps.maxInFlight);
        const reply = await bufferReader.xReadGroup(group, consumer, keys, { COUNT: count, BLOCK: options.blockMs });
        failures = 0;
        let read = 0;
        for (const stream of reply ?? []) {
          read += stream.messages.length;
          this.dispatchAll(String(stream.name), stream.messages as RawStreamEntry[]);
        }
        // Found some but not a full read: let more arrive before the next one (a quiet stream blocks instead).
        if (lingerMs > 0 && read > 0 && read < count) await sleep(lingerMs, this.abort.signal);
      } catch (error) {
        if (this.abort.signal.aborted) return;
        failures++;
        this.deps.logger.warn({ err: error, group, consumer }, 'redis stream read failed; retrying');
        if (String((error as Error).message).startsWith('NOGROUP')) await this.recreateGroups();
        await sleep(backoffDelay(failures, this.deps.backoff), this.abort.signal);
      }
    }
  }

  private dispatchAll(stream: string, entries: Array<RawStreamEntry | null>): void {
    const topic = this.deps.streams.get(stream) ?? stream;
    for (const entry of entries) {
      if (!entry) continue;
      const id = entry.id.toString();
      const ids = this.inFlight.get(stream) ?? new Set<string>();
      if (ids.has(id)) continue;
      ids.add(id);
      this.inFlight.set(stream, ids);
      this.runner.dispatch(fromStreamEntry(topic, entry));
    }
  }

  /**
   * Acknowledges a handled message. Acks requested in one turn of the event
   * loop go out as one XACK per stream: a read of 32 entries costs one command
   * instead of 32 (each command was a socket write, a third of a lightly
   * loaded consumer's CPU). The handler's chain does not wait for the XACK, so
   * the next message of its key starts without a Redis round trip in between.
   * A lost ack only means one more (idempotent) delivery later; close()
   * sends the acks still queued and waits for them.
   */
  private ack(message: EventMessage): void {
    const stream = this.deps.options.streamPrefix + message.topic;
    let batch = this.pendingAcks.get(stream);
    if (!batch) {
      batch = [];
      this.pendingAcks.set(stream, batch);
    }
    batch.push(message);
    if (!this.ackScheduled) {
      this.ackScheduled = true;
      setImmediate(() => this.flushAcks());
    }
  }

  /** Sends the queued acks (one XACK per stream); the promise is tracked until it settles. */
  private flushAcks(): void {
    this.ackScheduled = false;
    if (this.pendingAcks.size === 0) return;
    const batches = [...this.pendingAcks];
    this.pendingAcks.clear();
    const sent = Promise.all(batches.map(async ([stream, messages]) => {
      try {
        await this.deps.commands.xAck(stream, this.deps.group, messages.map((m) => m.offset ?? ''));
      } catch (error) {
        this.deps.logger.warn({ err: error, stream, group: this.deps.group, count: messages.length }, 'event acknowledgement failed');
      } finally {
        messages.forEach((m) => this.forget(m));
      }
    })).then(() => undefined);
    this.acking.add(sent);
    void sent.finally(() => this.acking.delete(sent));
  }

  /** Sends what is queued now and waits for every XACK sent. */
  private async drainAcks(): Promise<void> {
    this.flushAcks();
    await Promise.all([...this.acking]);
  }

  private forget(message: EventMessage): void {
    this.inFlight.get(this.deps.options.streamPrefix + message.topic)?.delete(message.offset ?? '');
  }

  /** Runs one periodic job at a time (a slow one is skipped, not queued) so close() can wait for it. */
  private runMaintenance(job: () => Promise<void>): void {
    if (this.maintenanceRunning || this.abort.signal.aborted) return;
    this.maintenanceRunning = true;
    this.maintenance = job()
      .catch((error) => this.deps.logger.warn({ err: error, group: this.deps.group }, 'redis stream maintenance failed'))
      .finally(() => {
        this.maintenanceRunning = false;
      });
  }

  /** Takes over entries another (presumably dead) member left pending for longer than claimIdleMs. */
  private async claimIdle(): Promise<void> {
    const { commands, group, consumer, options } = this.deps;
    const bufferCommands = commands.withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer });
    for (const stream of this.deps.streams.keys()) {
      let cursor = '0-0';
      do {
        if (this.abort.signal.aborted || !this.runner.hasCapacity()) return;
        const reply = await bufferCommands.xAutoClaim(stream, group, consumer, options.claimIdleMs, cursor, { COUNT: options.batchSize });
        cursor = reply.nextId.toString();
        if (reply.messages.length > 0) {
          this.deps.logger.info({ stream, group, count: reply.messages.length }, 'reclaimed idle pending stream entries');
        }
        this.dispatchAll(stream, reply.messages as Array<RawStreamEntry | null>);
      } while (cursor !== '0-0');
    }
  }

  /** Resets the idle time of entries still being handled here (XCLAIM to self, JUSTID: no delivery count bump). */
  private async touchInFlight(): Promise<void> {
    const { commands, group, consumer } = this.deps;
    for (const [stream, ids] of this.inFlight) {
      if (ids.size > 0) await commands.xClaimJustId(stream, group, consumer, 0, [...ids]);
    }
  }

  /** CLIENT UNBLOCK makes the blocked XREADGROUP return at once; repeated in case it was not yet sent. */
  private async interruptRead(): Promise<void> {
    for (let tries = 0; tries < 20; tries++) {
      await this.deps.commands.sendCommand(['CLIENT', 'UNBLOCK', String(this.deps.readerId)]).catch(() => undefined);
      if (await settlesWithin(this.reading, 100)) return;
    }
    // Redis unreachable: drop the connection; an entry read but not seen stays pending and is reclaimed.
    this.deps.reader.destroy();
    await this.reading;
  }

  private async recreateGroups(): Promise<void> {
    await ensureGroups(this.deps.commands, [...this.deps.streams.keys()], this.deps.group, true).catch(() => undefined);
  }
}
