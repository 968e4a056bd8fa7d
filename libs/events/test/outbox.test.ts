import { randomUUID } from 'node:crypto';
import knexFactory, { type Knex } from 'knex';
import { createTestDatabase, type TestDatabase } from '@tabula/testing';
import { MemoryEventBus, OutboxRelay, enqueueEvent, handleOnce, outboxMigration, processedEventsMigration, type EventMessage } from '../src';
import { eventually } from './event-bus.contract';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
const event = (topic: string) => ({ topic, key: 'table-1', type: 'records.after.insert', payload: new Uint8Array([1]) });

describe('transactional outbox', () => {
  let database: TestDatabase;
  let db: Knex;
  let bus: MemoryEventBus;
  let topic: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = knexFactory({ client: 'pg', connection: database.url, pool: { min: 0, max: 6 } });
    await db.raw('CREATE SCHEMA svc');
    await outboxMigration(db, 'svc');
    await processedEventsMigration(db, 'svc');
    await db.schema.withSchema('svc').createTable('effects', (t) => { t.string('event_id').notNullable(); });
  });
  afterAll(async () => { await db.destroy(); await database.drop(); });
  beforeEach(() => { bus = new MemoryEventBus(quiet); topic = `t.${randomUUID()}`; });
  afterEach(async () => { await bus.close(); });

  it('never publishes an event whose transaction rolled back', async () => {
    const got: EventMessage[] = [];
    await bus.subscribe({ group: 'c', topics: [topic], handler: async (m) => { got.push(m); } });
    await expect(db.transaction(async (trx) => {
      await enqueueEvent(trx, 'svc', event(topic));
      throw new Error('business rule failed');
    })).rejects.toThrow('business rule failed');
    const committedId = await db.transaction((trx) => enqueueEvent(trx, 'svc', event(topic)));
    const relay = new OutboxRelay({ knex: db, schema: 'svc', bus, logger: quiet });
    await relay.flush();
    await eventually(() => expect(got).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 100));
    expect(got.map((m) => m.id)).toEqual([committedId]);
  });

  it('re-publishes after a relay died between publish and mark, and the consumer acts once', async () => {
    const deliveries: string[] = [];
    await bus.subscribe({ group: 'effects', topics: [topic], handler: async (m) => {
      deliveries.push(m.id);
      await handleOnce(db, 'svc', 'effects', m.id, async (trx) => { await trx.withSchema('svc').table('effects').insert({ event_id: m.id }); });
    } });
    const id = await db.transaction((trx) => enqueueEvent(trx, 'svc', event(topic)));
    const dying = new OutboxRelay({ knex: db, schema: 'svc', bus, logger: quiet, afterPublish: async () => { throw new Error('killed before mark-sent'); } });
    await expect(dying.flush()).rejects.toThrow('killed before mark-sent');
    const restarted = new OutboxRelay({ knex: db, schema: 'svc', bus, logger: quiet });
    expect(await restarted.flush()).toBe(1);
    await eventually(() => expect(deliveries).toEqual([id, id]));
    const effects = await db.withSchema('svc').table('effects').where({ event_id: id });
    expect(effects).toHaveLength(1);
    const row = await db.withSchema('svc').table('outbox').where({ id }).first();
    expect(row.published_at).not.toBeNull();
  });

  it('two relays running at once publish each row once', async () => {
    const got: string[] = [];
    await bus.subscribe({ group: 'c', topics: [topic], handler: async (m) => { got.push(m.id); } });
    const ids = await db.transaction(async (trx) => {
      const out: string[] = [];
      for (let i = 0; i < 300; i += 1) out.push(await enqueueEvent(trx, 'svc', event(topic)));
      return out;
    });
    const a = new OutboxRelay({ knex: db, schema: 'svc', bus, logger: quiet, batchSize: 25 });
    const b = new OutboxRelay({ knex: db, schema: 'svc', bus, logger: quiet, batchSize: 25 });
    const [na, nb] = await Promise.all([a.flush(), b.flush()]);
    expect(na + nb).toBe(300);
    await eventually(() => expect(got).toHaveLength(300));
    expect(new Set(got)).toEqual(new Set(ids));
  });

  it('the poll loop publishes what no request flushed', async () => {
    const got: string[] = [];
    await bus.subscribe({ group: 'c', topics: [topic], handler: async (m) => { got.push(m.id); } });
    const relay = new OutboxRelay({ knex: db, schema: 'svc', bus, logger: quiet, pollIntervalMs: 20 });
    relay.start();
    const id = await db.transaction((trx) => enqueueEvent(trx, 'svc', event(topic)));
    await eventually(() => expect(got).toEqual([id]));
    await relay.stop();
  });
});
