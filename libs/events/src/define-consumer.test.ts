import { MemoryEventBus } from './memory/memory-event-bus';
import { defineConsumer } from './define-consumer';
import type { EventMessage } from './event-bus';

describe('defineConsumer', () => {
  it('subscribes the handler with the service ports: shared groups share, per-process groups each get every event', async () => {
    const bus = new MemoryEventBus({ kind: 'memory', clientId: 'test' });
    const seen: string[] = [];
    const make = (name: string, delivery: Parameters<typeof defineConsumer>[0]['delivery']) => defineConsumer<{ bus: MemoryEventBus; tag: string }>({
      name, topics: ['t'], delivery,
      async handle(ports, message: EventMessage) { seen.push(`${ports.tag}:${message.type}`); },
    });
    const shared = make('x.shared', { kind: 'shared', group: 'g' });
    const perProcess = make('x.cache', { kind: 'per-process', prefix: 'cache' });
    const running = [
      await shared.start({ bus, tag: 's1' }), await shared.start({ bus, tag: 's2' }),
      await perProcess.start({ bus, tag: 'p1' }), await perProcess.start({ bus, tag: 'p2' }),
    ];
    await bus.publish([{ topic: 't', key: 'k', type: 'e1', payload: new Uint8Array() }]);
    const until = Date.now() + 2000;
    while (seen.length < 3 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 50));
    for (const r of running) await r.stop();
    expect(seen.filter((s) => s.startsWith('s')).length).toBe(1);
    expect(seen.filter((s) => s.startsWith('p')).sort()).toEqual(['p1:e1', 'p2:e1']);
  });
});
