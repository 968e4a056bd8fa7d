import knexFactory from 'knex';
import type { Knex } from 'knex';
import { createTestDatabase } from '@tabula/testing';
import type { TestDatabase } from '@tabula/testing';
import { handleOnce, processedEventsMigration, pruneProcessedEvents } from '@tabula/events';

const SCHEMA = 'consumer_svc';

describe('handleOnce', () => {
  let database: TestDatabase;
  let knex: Knex;
  const effects = (): Promise<unknown[]> => knex.withSchema(SCHEMA).table('effects').select();
  const insertEffect = (id: string) => async (trx: Knex.Transaction): Promise<void> => {
    await trx.withSchema(SCHEMA).table('effects').insert({ event_id: id });
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    knex = knexFactory({ client: 'pg', connection: database.url, pool: { min: 0, max: 6 } });
    await knex.raw(`CREATE SCHEMA ${SCHEMA}`);
    await processedEventsMigration(knex, SCHEMA);
    await processedEventsMigration(knex, SCHEMA); // idempotent
    await knex.schema.withSchema(SCHEMA).createTable('effects', (table) => table.text('event_id').notNullable());
  });
  afterAll(async () => {
    await knex.destroy();
    await database.drop();
  });
  beforeEach(async () => {
    await knex.withSchema(SCHEMA).table('effects').delete();
    await knex.withSchema(SCHEMA).table('processed_events').delete();
  });

  it('runs the work once per consumer and event id', async () => {
    expect(await handleOnce(knex, SCHEMA, 'hooks', 'e1', insertEffect('e1'))).toBe(true);
    expect(await handleOnce(knex, SCHEMA, 'hooks', 'e1', insertEffect('e1'))).toBe(false);
    expect(await handleOnce(knex, SCHEMA, 'comments', 'e1', insertEffect('e1'))).toBe(true);
    expect(await effects()).toHaveLength(2);
  });

  it('forgets the event when the work fails, so the redelivery does it', async () => {
    const failing = handleOnce(knex, SCHEMA, 'hooks', 'e2', async (trx) => {
      await insertEffect('e2')(trx);
      throw new Error('webhook target down');
    });
    await expect(failing).rejects.toThrow('webhook target down');
    expect(await effects()).toHaveLength(0);
    expect(await handleOnce(knex, SCHEMA, 'hooks', 'e2', insertEffect('e2'))).toBe(true);
    expect(await effects()).toHaveLength(1);
  });

  it('lets only one of two concurrent deliveries do the work', async () => {
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        handleOnce(knex, SCHEMA, 'hooks', 'e3', async (trx) => {
          await insertEffect('e3')(trx);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await effects()).toHaveLength(1);
  });

  it('prunes old processed ids', async () => {
    await handleOnce(knex, SCHEMA, 'hooks', 'old', async () => undefined);
    await knex.withSchema(SCHEMA).table('processed_events').update({ processed_at: knex.raw("now() - interval '30 days'") });
    await handleOnce(knex, SCHEMA, 'hooks', 'new', async () => undefined);
    expect(await pruneProcessedEvents(knex, SCHEMA, 7 * 86_400_000)).toBe(1);
  });
});
