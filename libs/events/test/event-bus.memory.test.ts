import { createEventBus } from '@tabula/events';
import { eventBusContract, eventually } from './event-bus.contract';

describe('EventBus contract: memory', () => {
  eventBusContract((logger) => createEventBus({ kind: 'memory', clientId: 'contract', logger, retry: { initialMs: 20, maxMs: 200 } }));

  it('handles one key\'s messages concurrently in an unordered subscription, one at a time otherwise', async () => {
    const bus = createEventBus({ kind: 'memory', clientId: 'unordered', retry: { initialMs: 20, maxMs: 200 } });
    const peakOf = async (ordered: boolean) => {
      let running = 0;
      let peak = 0;
      let done = 0;
      const subscription = await bus.subscribe({
        group: `g-${ordered}`, topics: [`t-${ordered}`], ordered,
        handler: async () => {
          running++;
          peak = Math.max(peak, running);
          await new Promise((r) => setTimeout(r, 30));
          running--;
          done++;
        },
      });
      await bus.publish(['a', 'b', 'c', 'd'].map((id) => ({ topic: `t-${ordered}`, key: 'one-table', type: 't', payload: new Uint8Array([1]), id: `${ordered}-${id}` })));
      await eventually(() => expect(done).toBe(4), 5000);
      await subscription.close();
      return peak;
    };
    expect(await peakOf(true)).toBe(1);
    expect(await peakOf(false)).toBeGreaterThan(1);
    await bus.close();
  });
});
