import knex from 'knex';
import { createTestDatabase } from '@tabula/testing';
import { operatorSuite } from './fixtures/operator-suite';

describe('operators on PostgreSQL', () => {
  operatorSuite('pg', async () => {
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
