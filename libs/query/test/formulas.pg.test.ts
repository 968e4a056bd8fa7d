import knex from 'knex';
import { createTestDatabase } from '@tabula/testing';
import { formulaSuite } from './fixtures/formula-suite';

describe('formulas on PostgreSQL', () => {
  formulaSuite('pg', async () => {
    const database = await createTestDatabase('tabula_query');
    const db = knex({ client: 'pg', connection: database.url, pool: { min: 0, max: 2 } });
    return {
      db,
      async close() {
        await db.destroy();
        await database.drop();
      },
    };
  });
});
