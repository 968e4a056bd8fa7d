import { randomUUID } from 'node:crypto';
import { context, createTraceState, propagation, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import type { TextMapPropagator } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import type { EventBus, EventLogger, EventMessage, PublishInput, Subscription } from '@tabula/events';

/** Per-adapter settings of the contract suite. */
export interface ContractOptions {
  /** How long to wait for deliveries (Kafka rebalances take seconds). Default 5000. */
  timeoutMs?: number;
  /** Creates topics before use (Kafka: with several partitions, so a group can share work). */
  prepareTopics?: (topics: string[]) => Promise<void>;
  /** Pause after a `fromBeginning: false` subscribe (Kafka resolves "latest" on its first fetch). Default 0. */
  settleMs?: number;
}

/** A logger that remembers warnings, so tests can check that failures are logged. */
export function captureLogger(): EventLogger & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, info: () => undefined, warn: (_obj, msg) => warnings.push(msg ?? ''), error: (_obj, msg) => warnings.push(msg ?? '') };
}

/** Polls `check` (sync or async) until it passes or `timeoutMs` elapses. */
export async function eventually(check: () => void | Promise<void>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
    await delay(20);
  }
}

export const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const bytes = (text: string): Uint8Array => new Uint8Array(Buffer.from(text));
const text = (message: EventMessage): string => Buffer.from(message.payload).toString();

/**
 * The behaviour every EventBus adapter must show. `makeBus` gets a logger that
 * records warnings; each test gets a fresh bus and fresh topics and groups.
 */
export function eventBusContract(makeBus: (logger: EventLogger) => EventBus, options: ContractOptions = {}): void {
  const timeoutMs = options.timeoutMs ?? 5000;
  let bus: EventBus;
  let logger: ReturnType<typeof captureLogger>;
  let topic: string;
  let subscriptions: Subscription[];
  const group = (name: string): string => `${name}-${randomUUID().slice(0, 8)}`;
  const subscribe = async (...args: Parameters<EventBus['subscribe']>): Promise<Subscription> => {
    const subscription = await bus.subscribe(...args);
    subscriptions.push(subscription);
    return subscription;
  };
  const message = (key: string, body: string, extra: Partial<PublishInput> = {}): PublishInput => ({
    topic, key, type: 'records.after.insert', payload: bytes(body), ...extra,
  });

  beforeAll(() => {
    propagation.setGlobalPropagator(new W3CTraceContextPropagator() as TextMapPropagator);
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  });
  afterAll(() => {
    propagation.disable();
    context.disable();
  });
  beforeEach(async () => {
    logger = captureLogger();
    bus = makeBus(logger);
    topic = `test.${randomUUID()}`;
    subscriptions = [];
    await options.prepareTopics?.([topic]);
  });
  afterEach(async () => {
    await Promise.all(subscriptions.map((subscription) => subscription.close()));
    await bus.close();
  });

  it('delivers a published message with its metadata and exact payload bytes', async () => {
    const got: EventMessage[] = [];
    await subscribe({ group: group('meta'), topics: [topic], handler: async (m) => void got.push(m) });
    const payload = new Uint8Array([0, 1, 127, 128, 255]);
    await bus.publish([{ topic, key: 'tbl_1', type: 'records.after.update', version: 3, payload, id: 'evt-1', timestamp: '2024-01-02T03:04:05.000Z' }]);
    await eventually(() => expect(got).toHaveLength(1), timeoutMs);
    expect(got[0]).toMatchObject({ id: 'evt-1', topic, key: 'tbl_1', type: 'records.after.update', version: 3, timestamp: '2024-01-02T03:04:05.000Z' });
    expect(Array.from(got[0].payload)).toEqual([0, 1, 127, 128, 255]);
  });

  it('fills in id, version and timestamp when the publisher does not', async () => {
    const got: EventMessage[] = [];
    await subscribe({ group: group('defaults'), topics: [topic], handler: async (m) => void got.push(m) });
    const before = Date.now();
    await bus.publish([message('k', 'x'), message('k', 'y')]);
    await eventually(() => expect(got).toHaveLength(2), timeoutMs);
    expect(got[0].id).toMatch(/^[0-9a-f-]{36}$/);
    expect(got[0].id).not.toBe(got[1].id);
    expect(got[0].version).toBe(1);
    expect(Date.parse(got[0].timestamp)).toBeGreaterThanOrEqual(before - 1000);
  });

  it('gives every group every message, and shares one group between its members', async () => {
    const a: string[] = [];
    const b1: string[] = [];
    const b2: string[] = [];
    const slow = (into: string[]) => async (m: EventMessage) => {
      await delay(5);
      into.push(text(m));
    };
    const shared = group('shared');
    await subscribe({ group: group('alone'), topics: [topic], handler: slow(a) });
    await subscribe({ group: shared, topics: [topic], handler: slow(b1) });
    await subscribe({ group: shared, topics: [topic], handler: slow(b2) });
    await bus.publish(Array.from({ length: 60 }, (_, i) => message(`k${i % 12}`, String(i))));
    await eventually(() => {
      expect(a).toHaveLength(60);
      expect(b1.length + b2.length).toBe(60);
    }, timeoutMs * 2);
    expect(new Set([...b1, ...b2]).size).toBe(60);
    expect(b1.length).toBeGreaterThan(0);
    expect(b2.length).toBeGreaterThan(0);
  });

  it('keeps order per key while handling keys concurrently', async () => {
    const seen = new Map<string, number[]>();
    await subscribe({
      group: group('order'),
      topics: [topic],
      handler: async (m) => {
        await delay(Math.random() * 4);
        const [key, n] = text(m).split(':');
        seen.set(key, [...(seen.get(key) ?? []), Number(n)]);
      },
    });
    for (let i = 0; i < 30; i++) await bus.publish([message(`k${i % 3}`, `k${i % 3}:${i}`)]);
    await bus.publish(Array.from({ length: 30 }, (_, i) => message(`k${i % 3}`, `k${i % 3}:${30 + i}`)));
    await eventually(() => expect([...seen.values()].flat()).toHaveLength(60), timeoutMs);
    for (const numbers of seen.values()) expect(numbers).toEqual([...numbers].sort((x, y) => x - y));
  });

  it('redelivers a message whose handler failed, logs it, and holds its key back meanwhile', async () => {
    const calls: Array<{ body: string; attempt?: number }> = [];
    await subscribe({
      group: group('retry'),
      topics: [topic],
      handler: async (m) => {
        calls.push({ body: text(m), attempt: m.attempt });
        if (text(m) === 'first' && calls.filter((c) => c.body === 'first').length < 3) throw new Error('transient');
      },
    });
    await bus.publish([message('k', 'first'), message('k', 'second')]);
    await eventually(() => expect(calls.map((c) => c.body)).toEqual(['first', 'first', 'first', 'second']), timeoutMs * 2);
    expect(calls.map((c) => c.attempt)).toEqual([1, 2, 3, 1]);
    expect(logger.warnings.filter((w) => w.includes('redelivered'))).toHaveLength(2);
  });

  it('carries custom headers and the W3C trace context into the handler', async () => {
    const got: Array<{ message: EventMessage; traceId?: string; traceState?: string }> = [];
    await subscribe({
      group: group('trace'),
      topics: [topic],
      handler: async (m) => {
        const active = trace.getSpanContext(context.active());
        got.push({ message: m, traceId: active?.traceId, traceState: active?.traceState?.serialize() });
      },
    });
    const traceId = '0af7651916cd43dd8448eb211c80319c';
    const spanContext = { traceId, spanId: 'b7ad6b7169203331', traceFlags: 1, isRemote: true, traceState: createTraceState('tabula=1') };
    const parent = trace.setSpanContext(ROOT_CONTEXT, spanContext);
    await context.with(parent, () => bus.publish([message('k', 'x', { headers: { 'x-request-id': 'req-1' } })]));
    await eventually(() => expect(got).toHaveLength(1), timeoutMs);
    const { headers } = got[0].message;
    expect(headers['x-request-id']).toBe('req-1');
    expect(headers.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
    expect(headers.tracestate).toBe('tabula=1');
    expect(Object.keys(headers).some((name) => name.startsWith('ce_'))).toBe(false);
    expect(got[0].traceId).toBe(traceId);
    expect(got[0].traceState).toBe('tabula=1');
  });

  it('close() waits for the handler in flight, and the group goes on with a new member', async () => {
    const shared = group('inflight');
    let started = false;
    let finished = false;
    const first = await subscribe({
      group: shared,
      topics: [topic],
      handler: async () => {
        started = true;
        await delay(300);
        finished = true;
      },
    });
    await bus.publish([message('k', 'one')]);
    await eventually(() => expect(started).toBe(true), timeoutMs);
    await first.close();
    expect(finished).toBe(true);
    const later: string[] = [];
    await bus.publish([message('k', 'two')]);
    await subscribe({ group: shared, topics: [topic], handler: async (m) => void later.push(text(m)) });
    await eventually(() => expect(later).toContain('two'), timeoutMs * 2);
  });

  it('hands a message a closing member could not finish to the next member', async () => {
    const shared = group('handover');
    let failures = 0;
    const first = await subscribe({
      group: shared,
      topics: [topic],
      handler: async () => {
        failures++;
        throw new Error('downstream is down');
      },
    });
    await bus.publish([message('k', 'stuck')]);
    await eventually(() => expect(failures).toBeGreaterThan(0), timeoutMs);
    const closing = Date.now();
    await first.close();
    expect(Date.now() - closing).toBeLessThan(2000);
    const got: string[] = [];
    await subscribe({ group: shared, topics: [topic], handler: async (m) => void got.push(text(m)) });
    await eventually(() => expect(got).toEqual(['stuck']), timeoutMs * 3);
  });

  it('starts a new group at the beginning by default, at the end with fromBeginning: false', async () => {
    await bus.publish([message('k', 'old')]);
    const earliest: string[] = [];
    const latest: string[] = [];
    await subscribe({ group: group('earliest'), topics: [topic], handler: async (m) => void earliest.push(text(m)) });
    await subscribe({ group: group('latest'), topics: [topic], fromBeginning: false, handler: async (m) => void latest.push(text(m)) });
    await delay(options.settleMs ?? 0);
    await bus.publish([message('k', 'new')]);
    await eventually(() => {
      expect(earliest).toEqual(['old', 'new']);
      expect(latest).toEqual(['new']);
    }, timeoutMs * 2);
  });

  it('a batch handler gets each message of a key once, in order (batches where the adapter queues per key), each with its publish time', async () => {
    const seen: string[] = [];
    const batches: number[] = [];
    const published: string[] = [];
    const take = async (messages: EventMessage[]) => {
      await delay(20);
      batches.push(messages.length);
      for (const m of messages) {
        seen.push(text(m));
        published.push(m.headers['tabula-published-at'] ?? '');
      }
    };
    await subscribe({ group: group('batch'), topics: [topic], handler: (m) => take([m]), handleBatch: take, maxBatch: 4 });
    const before = Date.now();
    for (let i = 0; i < 10; i++) await bus.publish([message('k', `m${i}`)]);
    await eventually(() => expect(seen).toHaveLength(10), timeoutMs);
    await delay(300);
    expect(seen).toEqual(Array.from({ length: 10 }, (_, i) => `m${i}`));
    expect(Math.max(...batches)).toBeLessThanOrEqual(4);
    expect(published.every((at) => Number(at) >= before - 1000 && Number(at) <= Date.now())).toBe(true);
  });

  it('a batch handler gets each message of interleaved keys once, every key in order, a batch never mixing keys', async () => {
    const seen = new Map<string, string[]>();
    let mixed = 0;
    const take = async (messages: EventMessage[]) => {
      await delay(10);
      if (new Set(messages.map((m) => m.key)).size > 1) mixed += 1;
      for (const m of messages) seen.set(m.key, [...(seen.get(m.key) ?? []), text(m)]);
    };
    await subscribe({ group: group('batch-keys'), topics: [topic], handler: (m) => take([m]), handleBatch: take, maxBatch: 3 });
    for (let i = 0; i < 12; i++) await bus.publish([message(`k${i % 3}`, `m${i}`)]);
    await eventually(() => expect([...seen.values()].flat()).toHaveLength(12), timeoutMs);
    await delay(300);
    expect({ mixed, k0: seen.get('k0'), k1: seen.get('k1'), k2: seen.get('k2') }).toEqual({
      mixed: 0, k0: ['m0', 'm3', 'm6', 'm9'], k1: ['m1', 'm4', 'm7', 'm10'], k2: ['m2', 'm5', 'm8', 'm11'],
    });
  });

  it('answers ping while open and refuses after close', async () => {
    await expect(bus.ping()).resolves.toBeUndefined();
    await bus.close();
    await expect(bus.ping()).rejects.toThrow();
  });
}
