import { randomUUID } from 'node:crypto';
import { context, propagation, trace, ROOT_CONTEXT, type TextMapPropagator } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import type { EventBus, EventMessage } from '../src';

/** Waits until `check` passes or the timeout elapses. */
export async function eventually(check: () => void, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try { check(); return; } catch (err) { if (Date.now() > deadline) throw err; }
    await new Promise((r) => setTimeout(r, 20));
  }
}

const payload = (text: string) => new Uint8Array(Buffer.from(text));
const text = (m: EventMessage) => Buffer.from(m.payload).toString();

/**
 * The behaviour every EventBus adapter must show; run against memory, Redis
 * Streams and (where KAFKA_BROKERS is set) Kafka.
 */
export function eventBusContract(makeBus: () => EventBus): void {
  let bus: EventBus;
  let topic: string;
  beforeAll(() => {
    propagation.setGlobalPropagator(new W3CTraceContextPropagator() as TextMapPropagator);
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  });
  beforeEach(() => { bus = makeBus(); topic = `test.${randomUUID()}`; });
  afterEach(async () => { await bus.close(); });

  it('delivers a published message with its metadata', async () => {
    const got: EventMessage[] = [];
    await bus.subscribe({ group: 'g1', topics: [topic], handler: async (m) => { got.push(m); } });
    await bus.publish([{ topic, key: 'k', type: 'records.after.insert', payload: payload('hello'), id: 'evt-1' }]);
    await eventually(() => expect(got).toHaveLength(1));
    expect(got[0]).toMatchObject({ id: 'evt-1', topic, key: 'k', type: 'records.after.insert', version: 1 });
    expect(text(got[0])).toBe('hello');
  });

  it('gives every group every message, and shares a group between its members', async () => {
    const a: string[] = []; const b1: string[] = []; const b2: string[] = [];
    await bus.subscribe({ group: 'a', topics: [topic], handler: async (m) => { a.push(text(m)); } });
    await bus.subscribe({ group: 'b', topics: [topic], handler: async (m) => { b1.push(text(m)); } });
    await bus.subscribe({ group: 'b', topics: [topic], handler: async (m) => { b2.push(text(m)); } });
    await bus.publish(Array.from({ length: 20 }, (_, i) => ({ topic, key: `k${i % 3}`, type: 't', payload: payload(String(i)) })));
    await eventually(() => { expect(a).toHaveLength(20); expect(b1.length + b2.length).toBe(20); });
    expect(new Set([...b1, ...b2]).size).toBe(20);
  });

  it('keeps order per key', async () => {
    const got: string[] = [];
    await bus.subscribe({ group: 'order', topics: [topic], handler: async (m) => { got.push(text(m)); } });
    for (let i = 0; i < 30; i += 1) await bus.publish([{ topic, key: 'same', type: 't', payload: payload(String(i)) }]);
    await eventually(() => expect(got).toHaveLength(30));
    expect(got).toEqual(Array.from({ length: 30 }, (_, i) => String(i)));
  });

  it('redelivers a message whose handler failed', async () => {
    let calls = 0; const done: string[] = [];
    await bus.subscribe({ group: 'retry', topics: [topic], handler: async (m) => {
      calls += 1;
      if (calls < 3) throw new Error('transient');
      done.push(m.id);
    } });
    await bus.publish([{ topic, key: 'k', type: 't', payload: payload('x'), id: 'retry-me' }]);
    await eventually(() => expect(done).toEqual(['retry-me']), 10_000);
    expect(calls).toBe(3);
  });

  it('carries custom headers and the trace context', async () => {
    const got: { headers: Record<string, string>; traceId?: string }[] = [];
    await bus.subscribe({ group: 'trace', topics: [topic], handler: async (m) => {
      got.push({ headers: m.headers, traceId: trace.getSpanContext(context.active())?.traceId });
    } });
    const traceId = '0af7651916cd43dd8448eb211c80319c';
    const parent = trace.setSpanContext(ROOT_CONTEXT, { traceId, spanId: 'b7ad6b7169203331', traceFlags: 1, isRemote: true });
    await context.with(parent, () => bus.publish([{ topic, key: 'k', type: 't', payload: payload('x'), headers: { 'x-custom': 'yes' } }]));
    await eventually(() => expect(got).toHaveLength(1));
    expect(got[0].headers['x-custom']).toBe('yes');
    expect(got[0].headers.traceparent).toContain(traceId);
  });

  it('close waits for the handler in flight', async () => {
    let finished = false;
    const sub = await bus.subscribe({ group: 'inflight', topics: [topic], handler: async () => {
      await new Promise((r) => setTimeout(r, 300));
      finished = true;
    } });
    await bus.publish([{ topic, key: 'k', type: 't', payload: payload('x') }]);
    await new Promise((r) => setTimeout(r, 100));
    await sub.close();
    expect(finished).toBe(true);
  });

  it('answers ping', async () => {
    await expect(bus.ping()).resolves.toBeUndefined();
  });
}
