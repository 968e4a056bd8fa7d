import { randomUUID } from 'node:crypto';
import knexFactory from 'knex';
import type { Knex } from 'knex';
import { createTestDatabase } from '@tabula/testing';
import type { TestDatabase } from '@tabula/testing';
import { createEventBus, enqueueEvent, OutboxRelay, outboxMigration } from '@tabula/events';
import type { EventBus, EventLogger, EventMessage, PublishInput } from '@tabula/events';
import { delay, eventually } from './event-bus.contract';
import { joinClaimedParts } from '../src/outbox/outbox.repository';

const SCHEMA = 'relay';

/** A logger keeping each warning with its fields (the relay's failure count is one of them). */
function recordingLogger(): EventLogger & { lines: { msg: string; fields: Record<string, unknown> }[] } {
  const lines: { msg: string; fields: Record<string, unknown> }[] = [];
  const keep = (fields: object, msg?: string): void => void lines.push({ msg: msg ?? '', fields: fields as Record<string, unknown> });
  return { lines, info: () => undefined, warn: keep, error: keep };
}

/** The relay's loop, its flush joining, its cleanup and its failure handling (the transactional outbox's own tests are in outbox.test.ts). */
describe('outbox relay', () => {
  let database: TestDatabase;
  let knex: Knex;
  let bus: EventBus;
  let topic: string;
  let log: ReturnType<typeof recordingLogger>;
  const event = (body = 'x', extra: Partial<PublishInput> = {}): PublishInput => ({ topic, key: 'k', type: 'records.after.insert', payload: new Uint8Array(Buffer.from(body)), ...extra });
  const relay = (options: Partial<ConstructorParameters<typeof OutboxRelay>[0]> = {}): OutboxRelay =>
    new OutboxRelay({ knex, schema: SCHEMA, bus, logger: log, ...options });
  const collect = async (): Promise<EventMessage[]> => {
    const into: EventMessage[] = [];
    await bus.subscribe({ group: `g-${randomUUID()}`, topics: [topic], handler: async (m) => void into.push(m) });
    return into;
  };
  const enqueue = (...bodies: string[]): Promise<string[]> =>
    knex.transaction(async (trx) => {
      const ids: string[] = [];
      for (const body of bodies) ids.push(await enqueueEvent(trx, SCHEMA, event(body)));
      return ids;
    });
  const outbox = () => knex.withSchema(SCHEMA).table('outbox');
  /** A bus whose publish fails while `down.is` is true. */
  const switchable = (down: { is: boolean }): EventBus => ({
    ...bus,
    publish: async (inputs) => (down.is ? Promise.reject(new Error('broker down')) : bus.publish(inputs)),
  });

  beforeAll(async () => {
    database = await createTestDatabase();
    knex = knexFactory({ client: 'pg', connection: database.url, pool: { min: 0, max: 8 } });
    await knex.raw(`CREATE SCHEMA ${SCHEMA}`);
    await outboxMigration(knex, SCHEMA);
  });
  afterAll(async () => {
    await knex.destroy();
    await database.drop();
  });
  beforeEach(async () => {
    await outbox().delete();
    bus = createEventBus({ kind: 'memory', clientId: 'relay-test', logger: recordingLogger() });
    topic = `t.${randomUUID()}`;
    log = recordingLogger();
  });
  afterEach(async () => {
    await bus.close();
  });

  it('a flush during a run joins it (same promise) and makes it look once more: a row committed after the last claim goes out in that run', async () => {
    const got = await collect();
    const [first] = await enqueue('first');
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => { release = resolve; });
    const published: string[][] = [];
    // The only batch (1 row, under batchSize) is held after its publish: a plain drain would end after it.
    const r = relay({ batchSize: 2, afterPublish: async (ids) => { published.push(ids); if (published.length === 1) await gate; } });
    const run = r.flush();
    await eventually(() => expect(published).toEqual([[first]]));
    const [late] = await enqueue('late');
    const joined = r.flush();
    expect(joined).toBe(run);
    release();
    expect(await run).toBe(2);
    expect(published).toEqual([[first], [late]]);
    await eventually(() => expect(got.map((m) => m.id)).toEqual([first, late]));
    // The run is over: the next flush is a new one, with nothing left.
    const next = r.flush();
    expect(next).not.toBe(run);
    expect(await next).toBe(0);
  });

  it('drains full batches until one comes back short, and counts every row', async () => {
    const got = await collect();
    const ids = await enqueue('a', 'b', 'c', 'd', 'e');
    const batches: number[] = [];
    expect(await relay({ batchSize: 2, afterPublish: async (claimed) => void batches.push(claimed.length) }).flush()).toBe(5);
    expect(batches).toEqual([2, 2, 1]);
    // Exactly a multiple of the batch size: one more (empty) claim ends the drain.
    const more = await enqueue('f', 'g', 'h', 'i');
    batches.length = 0;
    expect(await relay({ batchSize: 2, afterPublish: async (claimed) => void batches.push(claimed.length) }).flush()).toBe(4);
    expect(batches).toEqual([2, 2]);
    await eventually(() => expect(got.map((m) => m.id)).toEqual([...ids, ...more]));
  });

  it('a batch size that is not a positive integer is refused before anything is claimed', async () => {
    await enqueue('kept');
    for (const batchSize of [0, -1, 2.5]) {
      await expect(relay({ batchSize }).flush()).rejects.toThrow('relay batch size must be a positive integer');
    }
    // Nothing was claimed, so no failure was recorded on the row.
    expect(await outbox().select('attempts', 'last_error', 'published_at')).toEqual([{ attempts: 0, last_error: null, published_at: null }]);
    expect(await relay({ batchSize: 1 }).flush()).toBe(1);
  });

  it('nudge never throws: a failed publish is logged (with the schema) and the rows stay for the poll', async () => {
    const [id] = await enqueue('later');
    const down = { is: true };
    const r = relay({ bus: switchable(down) });
    await expect(r.nudge()).resolves.toBeUndefined();
    expect(log.lines).toEqual([{ msg: 'outbox flush failed; the relay will retry', fields: { err: expect.objectContaining({ message: 'broker down' }), schema: SCHEMA } }]);
    expect(await outbox().where({ id }).first()).toMatchObject({ published_at: null, attempts: 1, last_error: 'broker down' });
    down.is = false;
    const got = await collect();
    await r.nudge();
    await eventually(() => expect(got.map((m) => m.id)).toEqual([id]));
    expect(log.lines).toHaveLength(1);
    expect(r.schema).toBe(SCHEMA);
  });

  it('the last error is recorded as text, cut at 2000 characters, also when the bus rejects with something that is not an Error', async () => {
    const [id] = await enqueue('x');
    const long: EventBus = { ...bus, publish: async () => Promise.reject(new Error('e'.repeat(5000))) };
    await expect(relay({ bus: long }).flush()).rejects.toThrow();
    const row = await outbox().where({ id }).first();
    expect([row.attempts, row.last_error]).toEqual([1, 'e'.repeat(2000)]);
    // a bus client may reject with a plain string
    const plain: EventBus = { ...bus, publish: async () => Promise.reject('connection reset') };
    await expect(relay({ bus: plain }).flush()).rejects.toBe('connection reset');
    expect(await outbox().where({ id }).first()).toMatchObject({ attempts: 2, last_error: 'connection reset', published_at: null });
  });

  it('the poll loop counts consecutive failures in its warnings, starts again at 1 after a success, and stop() ends it', async () => {
    const down = { is: true };
    const got = await collect();
    const poller = relay({ pollIntervalMs: 10, bus: switchable(down) });
    const failures = () => log.lines.filter((l) => l.msg === 'outbox relay failed; retrying').map((l) => l.fields.failures);
    const [a] = await enqueue('a');
    poller.start();
    poller.start(); // a second start does not start a second loop
    await eventually(() => expect(failures().slice(0, 3)).toEqual([1, 2, 3]));
    expect(log.lines[0].fields).toEqual({ err: expect.objectContaining({ message: 'broker down' }), schema: SCHEMA, failures: 1 });
    down.is = false;
    await eventually(() => expect(got.map((m) => m.id)).toEqual([a]));
    const before = failures().length;
    expect(failures()).toEqual(Array.from({ length: before }, (_, i) => i + 1));
    down.is = true;
    await enqueue('b');
    await eventually(() => expect(failures().length).toBeGreaterThan(before));
    expect(failures()[before]).toBe(1);
    await poller.stop();
    // Stopped: a row committed now stays in the outbox, and no more warnings come.
    down.is = false;
    const after = log.lines.length;
    const [c] = await enqueue('c');
    await delay(200);
    expect(await outbox().where({ id: c }).first()).toMatchObject({ published_at: null });
    expect(log.lines).toHaveLength(after);
  });

  it('cleanup deletes every row published before the default 24 h retention, in chunks, once a minute, and no unpublished row', async () => {
    // 2,500 rows published two days ago (more than one 1,000-row chunk), one 25 h ago, one 23 h ago, one not yet published.
    await knex.raw(`INSERT INTO ${SCHEMA}.outbox (id, topic, key, type, payload, published_at) SELECT gen_random_uuid(), 't', 'k', 'x', '\\x00', now() - interval '2 days' FROM generate_series(1, 2500)`);
    const [old, recent, unsent] = await enqueue('old', 'recent', 'unsent');
    await outbox().where({ id: old }).update({ published_at: knex.raw("now() - interval '25 hours'") });
    await outbox().where({ id: recent }).update({ published_at: knex.raw("now() - interval '23 hours'") });
    await outbox().where({ id: unsent }).update({ created_at: knex.raw("now() - interval '3 days'") });
    const poller = relay({ pollIntervalMs: 10 });
    poller.start();
    const left = async () => (await outbox().select('id').orderBy('id')).map((r) => r.id);
    await eventually(async () => expect(await left()).toEqual([recent, unsent].sort()), 20_000);
    // Within the minute: a row past the retention stays while the loop keeps polling (two more rows published by it).
    const [second] = await enqueue('second');
    await outbox().where({ id: second }).update({ published_at: knex.raw("now() - interval '3 days'") });
    const probes: string[] = [];
    for (const body of ['p1', 'p2']) {
      const [probe] = await enqueue(body);
      probes.push(probe);
      await eventually(async () => expect((await outbox().where({ id: probe }).first()).published_at).not.toBeNull());
    }
    await poller.stop();
    expect(await left()).toEqual([recent, unsent, second, ...probes].sort());
  });

  it('lag: the unsent rows and the age of the oldest, published rows not counted; zero when all are sent', async () => {
    const r = relay();
    expect(await r.lag()).toEqual({ unsent: 0, oldestAgeSeconds: 0 });
    const [a, b, c] = await enqueue('a', 'b', 'c');
    await outbox().where({ id: a }).update({ created_at: knex.raw("now() - interval '1 hour'") });
    await outbox().where({ id: b }).update({ created_at: knex.raw("now() - interval '10 minutes'") });
    await outbox().where({ id: c }).update({ created_at: knex.raw("now() - interval '2 hours'"), published_at: knex.raw('now()') });
    const lag = await r.lag();
    expect(lag.unsent).toBe(2);
    expect(lag.oldestAgeSeconds).toBeGreaterThanOrEqual(3600);
    expect(lag.oldestAgeSeconds).toBeLessThan(7200);
    // A clock skew (created_at in the future) never answers a negative age.
    await outbox().whereIn('id', [a, b]).update({ created_at: knex.raw("now() + interval '1 hour'") });
    expect(await r.lag()).toEqual({ unsent: 2, oldestAgeSeconds: 0 });
  });

  it('the bus message keeps the event id, version, headers and enqueue time', async () => {
    const got = await collect();
    const id = randomUUID();
    const timestamp = '2026-01-02T03:04:05.678Z';
    await knex.transaction((trx) => enqueueEvent(trx, SCHEMA, event('v', { id, version: 3, timestamp, headers: { 'x-a': 'b' } })));
    const defaults = await knex.transaction((trx) => enqueueEvent(trx, SCHEMA, event('d')));
    expect(await relay().flush()).toBe(2);
    await eventually(() => expect(got).toHaveLength(2));
    expect(got[0]).toMatchObject({ id, topic, key: 'k', type: 'records.after.insert', version: 3, timestamp });
    expect(got[0].headers['x-a']).toBe('b');
    expect(got[1]).toMatchObject({ id: defaults, version: 1 });
  });

  it('joinClaimedParts joins each row\'s consecutive parts and refuses a payload whose decoded length differs from the stored size', () => {
    const head = { id: 'i', topic: 't', key: 'k', type: 'x', version: 1, headers: {}, created_at: new Date(0) };
    const b64 = (text: string) => Buffer.from(text).toString('base64');
    const rows = joinClaimedParts([
      { ...head, id: 'a', seq: '1', part: 1, size: 6, payload: b64('abc') },
      { ...head, id: 'a', seq: 1, part: 2, size: 6, payload: b64('def') },
      { ...head, id: 'b', seq: '2', part: 1, size: 0, payload: '' },
      { ...head, id: 'c', seq: '3', part: 1, size: '2', payload: b64('hi') },
    ]);
    expect(rows.map((r) => [r.id, String(r.seq), Buffer.from(r.payload).toString()])).toEqual([['a', '1', 'abcdef'], ['b', '2', ''], ['c', '3', 'hi']]);
    expect(Object.keys(rows[0]).sort()).toEqual(['created_at', 'headers', 'id', 'key', 'payload', 'seq', 'topic', 'type', 'version']);
    expect(() => joinClaimedParts([{ ...head, seq: '9', part: 1, size: 4, payload: b64('abc') }])).toThrow('outbox payload of 9: 3 bytes decoded, 4 stored');
  });
});
