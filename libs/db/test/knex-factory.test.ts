import { createTestDatabase, type TestDatabase } from '@tabula/testing';
import type { Knex } from 'knex';
import { createKnex } from '../src';

/** createKnex's PostgreSQL client (queries sent as text and values): the same answers and the same name as knex's own. */
describe('createKnex (libs/db knex-factory.ts)', () => {
  let database: TestDatabase;
  let db: Knex;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createKnex({ url: database.url, poolMax: 2 });
  });
  afterAll(async () => { await db.destroy(); await database.drop(); });

  it('is still named pg (code that checks the dialect by config.client), of the postgresql dialect', () => {
    expect((db.client as { config: { client: unknown } }).config.client).toBe('pg');
    expect((db.client as { dialect: string }).dialect).toBe('postgresql');
  });

  it('answers queries with values, inside transactions too, and driver options still reach pg', async () => {
    expect((await db.raw('select ?::int + 1 as n, ?::text as t', [41, 'x'])).rows).toEqual([{ n: 42, t: 'x' }]);
    await db.transaction(async (trx) => {
      expect((await trx.raw('select ?::int * 2 as n', [21])).rows).toEqual([{ n: 42 }]);
      expect(await trx.select(trx.raw('1 as one'))).toEqual([{ one: 1 }]);
    });
    const arrays = await db.raw('select 1 as a, 2 as b').options({ rowMode: 'array' });
    expect(arrays.rows).toEqual([[1, 2]]);
    await expect(db.raw('select 1 / (?::int - ?::int) as x', [1, 1])).rejects.toThrow(/division by zero/);
  });
});
