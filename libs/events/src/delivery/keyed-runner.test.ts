import type { EventMessage } from '../event-bus';
import { KeyedRunner } from './keyed-runner';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
const message = (key: string, id: string): EventMessage => ({
  id, key, topic: 't', type: 't', version: 1, payload: new Uint8Array(), headers: {}, timestamp: new Date().toISOString(),
});
const tick = (ms = 5): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('KeyedRunner', () => {
  it('runs one key serially and different keys concurrently', async () => {
    const log: string[] = [];
    let running = 0;
    let peak = 0;
    const runner = new KeyedRunner({
      delivery: {
        logger: quiet,
        backoff: { initialMs: 1, maxMs: 1 },
        handler: async (m) => {
          running++;
          peak = Math.max(peak, running);
          await tick(10);
          log.push(m.id);
          running--;
        },
      },
      maxInFlight: 10,
      onProcessed: () => undefined,
    });
    ['a1', 'b1', 'a2', 'b2', 'a3'].forEach((id) => runner.dispatch(message(id[0], id)));
    while (log.length < 5) await tick();
    expect(await runner.close()).toEqual([]);
    expect(log.filter((id) => id.startsWith('a'))).toEqual(['a1', 'a2', 'a3']);
    expect(log.filter((id) => id.startsWith('b'))).toEqual(['b1', 'b2']);
    expect(peak).toBe(2);
  });

  it('runs one key concurrently when orderKey separates its messages (unordered consumers)', async () => {
    let running = 0;
    let peak = 0;
    let done = 0;
    const dispatcher = new KeyedRunner({
      delivery: {
        logger: quiet,
        backoff: { initialMs: 1, maxMs: 1 },
        handler: async () => {
          running++;
          peak = Math.max(peak, running);
          await tick(10);
          running--;
          done++;
        },
      },
      maxInFlight: 10,
      onProcessed: () => undefined,
      orderKey: (m) => m.id,
    });
    ['a1', 'a2', 'a3', 'a4'].forEach((id) => dispatcher.dispatch(message('a', id)));
    while (done < 4) await tick();
    expect(await dispatcher.close()).toEqual([]);
    expect(peak).toBe(4);
  });

  it('reports capacity and wakes a waiting reader when a slot frees', async () => {
    const runner = new KeyedRunner({
      delivery: { logger: quiet, backoff: { initialMs: 1, maxMs: 1 }, handler: () => tick(10) },
      maxInFlight: 2,
      onProcessed: () => undefined,
    });
    runner.dispatch(message('a', '1'));
    runner.dispatch(message('b', '2'));
    expect(runner.hasCapacity()).toBe(false);
    await runner.waitForCapacity();
    expect(runner.hasCapacity()).toBe(true);
    await runner.close();
  });

  it('on close, stops retrying and gives back unprocessed messages in arrival order', async () => {
    const processed: string[] = [];
    const runner = new KeyedRunner({
      delivery: {
        logger: quiet,
        // a close that waited out the retry backoff would not end within the test's timeout
        backoff: { initialMs: 600_000, maxMs: 600_000 },
        handler: async (m) => {
          if (m.key === 'a') throw new Error('down');
        },
      },
      maxInFlight: 10,
      onProcessed: (m) => void processed.push(m.id),
    });
    ['a1', 'b1', 'a2', 'a3'].forEach((id) => runner.dispatch(message(id[0], id)));
    await tick(20);
    const givenBack = await runner.close();
    expect(givenBack.map((m) => m.id)).toEqual(['a1', 'a2', 'a3']);
    expect(processed).toEqual(['b1']);
  });

  it('with a batch handler, hands over together the messages of a key that queued behind a running one, in order', async () => {
    const calls: string[][] = [];
    const processed: string[] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => { release = resolve; });
    const dispatcher = new KeyedRunner({
      delivery: {
        logger: quiet,
        backoff: { initialMs: 1, maxMs: 1 },
        handler: async (m) => {
          calls.push([m.id]);
          if (m.id === 'a1') await gate;
        },
      },
      batchHandler: async (messages) => void calls.push(messages.map((m) => m.id)),
      maxBatch: 3,
      maxInFlight: 100,
      onProcessed: (m) => void processed.push(m.id),
    });
    dispatcher.dispatch(message('a', 'a1'));
    await tick();
    ['a2', 'b1', 'a3', 'a4', 'a5', 'b2'].forEach((id) => dispatcher.dispatch(message(id[0], id)));
    await tick();
    release();
    while (processed.length < 7) await tick();
    expect(await dispatcher.close()).toEqual([]);
    expect(calls.filter((c) => c[0].startsWith('a'))).toEqual([['a1'], ['a2', 'a3', 'a4'], ['a5']]);
    expect(calls.filter((c) => c[0].startsWith('b'))).toEqual([['b1', 'b2']]);
  });

  it('a failing batch is retried whole and, on close, given back whole in arrival order', async () => {
    let attempts = 0;
    const seen: string[][] = [];
    const dispatcher = new KeyedRunner({
      delivery: { logger: quiet, backoff: { initialMs: 1, maxMs: 1 }, handler: () => tick(20) },
      batchHandler: async (messages) => {
        attempts++;
        seen.push(messages.map((m) => m.id));
        throw new Error('down');
      },
      maxInFlight: 100,
      onProcessed: () => undefined,
    });
    ['a1', 'a2', 'a3'].forEach((id) => dispatcher.dispatch(message('a', id)));
    while (attempts < 3) await tick();
    const givenBack = await dispatcher.close();
    // dispatched together, they form one batch from the start
    expect(seen.every((ids) => ids.join() === 'a1,a2,a3')).toBe(true);
    expect(givenBack.map((m) => m.id)).toEqual(['a1', 'a2', 'a3']);
  });
});
