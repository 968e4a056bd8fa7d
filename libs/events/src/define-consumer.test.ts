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

/** What a batching consumer saw: each call's message ids, `single:` for `handle`, `batch:` for `handleBatch`. */
class Recorder {
  readonly calls: string[][] = [];
  private open!: () => void;
  private readonly gate = new Promise<void>((resolve) => { this.open = resolve; });
  private signal!: () => void;
  /** Resolves once the first call runs (it is held until {@link release}). */
  readonly started = new Promise<void>((resolve) => { this.signal = resolve; });

  async record(ids: string[]): Promise<void> {
    this.calls.push(ids);
    if (this.calls.length > 1) return;
    this.signal();
    await this.gate;
  }

  release(): void {
    this.open();
  }
}

type BatchPorts = { bus: MemoryEventBus; rec: Recorder };

const batching = (options: Partial<Parameters<typeof defineConsumer<BatchPorts>>[0]> = {}) => defineConsumer<BatchPorts>({
  name: 'x.batch', topics: ['t'], delivery: { kind: 'shared', group: 'batch' },
  handle: (ports, message) => ports.rec.record([`single:${message.id}`]),
  handleBatch: (ports, messages) => ports.rec.record(messages.map((m) => `batch:${m.id}`)),
  ...options,
});

const publish = (bus: MemoryEventBus, ids: string[], key = 'k') =>
  bus.publish(ids.map((id) => ({ topic: 't', key, type: 'e', id, payload: new Uint8Array() })));

async function until(check: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 5));
}

/** Runs `consumer`: one message first (held), then `more` of the same key, then lets the first finish. */
async function queueBehindFirst(consumer: ReturnType<typeof batching>, more: string[]): Promise<string[][]> {
  const bus = new MemoryEventBus({ kind: 'memory', clientId: 'test' });
  const rec = new Recorder();
  const running = await consumer.start({ bus, rec });
  try {
    await publish(bus, ['m1']);
    await rec.started;
    await publish(bus, more);
    await new Promise((r) => setTimeout(r, 30));
    rec.release();
    await until(() => rec.calls.flat().length === 1 + more.length);
    return rec.calls;
  } finally {
    await running.stop();
    await bus.close();
  }
}

describe('defineConsumer: batch form', () => {
  const more = ['m2', 'm3', 'm4', 'm5'];

  it('hands the messages of one key that queued behind a running one to handleBatch together, in order; a lone one to handle', async () => {
    expect(await queueBehindFirst(batching(), more)).toEqual([['single:m1'], ['batch:m2', 'batch:m3', 'batch:m4', 'batch:m5']]);
  });

  it('caps a batch at maxBatch', async () => {
    expect(await queueBehindFirst(batching({ maxBatch: 3 }), more)).toEqual([['single:m1'], ['batch:m2', 'batch:m3', 'batch:m4'], ['single:m5']]);
  });

  it('accepts at most maxInFlight messages: with 1, none can wait in a batch behind the running one', async () => {
    expect(await queueBehindFirst(batching({ maxInFlight: 1 }), more)).toEqual([['single:m1'], ['single:m2'], ['single:m3'], ['single:m4'], ['single:m5']]);
  });

  it('without handleBatch every message goes to handle, one at a time', async () => {
    expect(await queueBehindFirst(batching({ handleBatch: undefined }), more)).toEqual(['m1', ...more].map((id) => [`single:${id}`]));
  });

  it('ordered: false runs one key\'s messages concurrently (each alone); ordered (the default) one after another', async () => {
    const peakOf = async (ordered?: boolean) => {
      const bus = new MemoryEventBus({ kind: 'memory', clientId: 'test' });
      let running = 0;
      let peak = 0;
      let done = 0;
      const consumer = defineConsumer<{ bus: MemoryEventBus }>({
        name: 'x.unordered', topics: ['t'], delivery: { kind: 'shared', group: 'u' }, ordered,
        async handle() {
          running++;
          peak = Math.max(peak, running);
          await until(() => running === 3, 100);
          running--;
          done++;
        },
      });
      const started = await consumer.start({ bus });
      await publish(bus, ['a', 'b', 'c']);
      await until(() => done === 3);
      await started.stop();
      await bus.close();
      return { peak, done };
    };
    expect(await peakOf(false)).toEqual({ peak: 3, done: 3 });
    expect((await peakOf(undefined)).peak).toBe(1);
  });
});
