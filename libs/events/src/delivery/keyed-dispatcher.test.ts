import type { EventMessage } from '../event-bus';
import { KeyedDispatcher } from './keyed-dispatcher';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
const message = (key: string, id: string): EventMessage => ({
  id, key, topic: 't', type: 't', version: 1, payload: new Uint8Array(), headers: {}, timestamp: new Date().toISOString(),
});
const tick = (ms = 5): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('KeyedDispatcher', () => {
  it('runs one key serially and different keys concurrently', async () => {
    const log: string[] = [];
    let running = 0;
    let peak = 0;
    const dispatcher = new KeyedDispatcher({
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
    ['a1', 'b1', 'a2', 'b2', 'a3'].forEach((id) => dispatcher.dispatch(message(id[0], id)));
    while (log.length < 5) await tick();
    expect(await dispatcher.close()).toEqual([]);
    expect(log.filter((id) => id.startsWith('a'))).toEqual(['a1', 'a2', 'a3']);
    expect(log.filter((id) => id.startsWith('b'))).toEqual(['b1', 'b2']);
    expect(peak).toBe(2);
  });

  it('runs one key concurrently when orderKey separates its messages (unordered consumers)', async () => {
    let running = 0;
    let peak = 0;
    let done = 0;
    const dispatcher = new KeyedDispatcher({
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
    const dispatcher = new KeyedDispatcher({
      delivery: { logger: quiet, backoff: { initialMs: 1, maxMs: 1 }, handler: () => tick(10) },
      maxInFlight: 2,
      onProcessed: () => undefined,
    });
    dispatcher.dispatch(message('a', '1'));
    dispatcher.dispatch(message('b', '2'));
    expect(dispatcher.hasCapacity()).toBe(false);
    await dispatcher.waitForCapacity();
    expect(dispatcher.hasCapacity()).toBe(true);
    await dispatcher.close();
  });

  it('on close, stops retrying and gives back unprocessed messages in arrival order', async () => {
    const processed: string[] = [];
    const dispatcher = new KeyedDispatcher({
      delivery: {
        logger: quiet,
        backoff: { initialMs: 1000, maxMs: 1000 },
        handler: async (m) => {
          if (m.key === 'a') throw new Error('down');
        },
      },
      maxInFlight: 10,
      onProcessed: (m) => void processed.push(m.id),
    });
    ['a1', 'b1', 'a2', 'a3'].forEach((id) => dispatcher.dispatch(message(id[0], id)));
    await tick(20);
    const started = Date.now();
    const givenBack = await dispatcher.close();
    expect(Date.now() - started).toBeLessThan(500);
    expect(givenBack.map((m) => m.id)).toEqual(['a1', 'a2', 'a3']);
    expect(processed).toEqual(['b1']);
  });
});
