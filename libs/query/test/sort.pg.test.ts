import knex, { type Knex } from 'knex';
import { createTestDatabase, type TestDatabase } from '@tabula/testing';
import { applySort, parseSort, type ColumnMeta } from '../src';

const columns: ColumnMeta[] = [
  { id: 'c1', title: 'Id', column_name: 'id', uidt: 'ID', pk: true },
  { id: 'c2', title: 'Doc', column_name: 'doc', uidt: 'JSON', dt: 'json' },
];

describe('sorting on PostgreSQL', () => {
  let database: TestDatabase;
  let db: Knex;
  beforeAll(async () => {
    database = await createTestDatabase('tabula_query');
    db = knex({ client: 'pg', connection: database.url, pool: { min: 0, max: 2 } });
    await db.schema.createTable('docs', (t) => { t.integer('id').primary(); t.json('doc'); });
    await db('docs').insert([{ id: 1, doc: JSON.stringify({ b: 1 }) }, { id: 2, doc: null }, { id: 3, doc: JSON.stringify({ a: 1 }) }]);
  });
  afterAll(async () => { await db.destroy(); await database.drop(); });

  it('sorts a json column by its text (json has no ordering operator), nulls first ascending', async () => {
    const asc = await applySort(db('docs').select('id'), parseSort('Doc', columns), 'pg');
    expect(asc.map((r: { id: number }) => r.id)).toEqual([2, 3, 1]);
    const desc = await applySort(db('docs').select('id'), parseSort('-Doc', columns), 'pg');
    expect(desc.map((r: { id: number }) => r.id)).toEqual([1, 3, 2]);
  });
});
