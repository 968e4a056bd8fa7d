import knexFactory, { type Knex } from 'knex';
import { createTestDatabase, type TestDatabase } from '@tabula/testing';
import { BaseModel } from '../src';

class Thing extends BaseModel {
  static override tableName = 'model_test.things';
  static override jsonValueColumns = ['data'];
  static override jsonColumns = ['meta'];
  declare id: string;
  declare data: unknown;
  declare meta?: unknown;
  declare updated_at: Date;
}

class Use extends BaseModel {
  static override tableName = 'model_test.uses';
  static override idColumn = ['a', 'b'];
  declare a: string;
  declare b: string;
}

describe('BaseModel (objection models of the services\' own tables)', () => {
  let database: TestDatabase;
  let db: Knex;
  const statements: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    db = knexFactory({ client: 'pg', connection: database.url, pool: { min: 0, max: 2 } });
    await db.raw('create schema model_test');
    await db.schema.withSchema('model_test').createTable('things', (t) => { t.string('id').primary(); t.jsonb('data'); t.jsonb('meta'); t.timestamp('updated_at').defaultTo(db.fn.now()); });
    await db.schema.withSchema('model_test').createTable('uses', (t) => { t.string('a'); t.string('b'); t.primary(['a', 'b']); });
    db.on('query', (q: { sql: string }) => statements.push(q.sql));
  });
  afterAll(async () => { await db.destroy(); await database.drop(); });

  it('jsonColumns keep null as SQL NULL', async () => {
    await Thing.query(db).insert({ id: 'm1', meta: null });
    await Thing.query(db).insert({ id: 'm2', meta: 'text' });
    const types = await db.raw("select id, jsonb_typeof(meta) as t from model_test.things where id like 'm%' order by id");
    expect(types.rows).toEqual([{ id: 'm1', t: null }, { id: 'm2', t: 'string' }]);
    await Thing.query(db).whereIn('id', ['m1', 'm2']).delete();
  });

  it('jsonValueColumns are written with JSON.stringify (scalars and JSON null too) and read as pg answers', async () => {
    await Thing.query(db).insert({ id: 'str', data: '1' });
    await Thing.query(db).insert({ id: 'null', data: null });
    await Thing.query(db).insert({ id: 'none' });
    await Thing.query(db).insert({ id: 'obj', data: { a: [1] } });
    const types = await db.raw('select id, jsonb_typeof(data) as t from model_test.things order by id');
    expect(types.rows).toEqual([{ id: 'none', t: null }, { id: 'null', t: 'null' }, { id: 'obj', t: 'object' }, { id: 'str', t: 'string' }]);
    const rows = await Thing.query(db).orderBy('id');
    expect(rows.map((r) => [r.id, r.data])).toEqual([['none', null], ['null', null], ['obj', { a: [1] }], ['str', '1']]);
    expect(Object.keys({ ...rows[0] }).sort()).toEqual(['data', 'id', 'meta', 'updated_at']);
  });

  it('joins the transaction it is handed (rolled back with it) and passes SQL expressions through', async () => {
    await expect(db.transaction(async (trx) => {
      await Thing.query(trx).where({ id: 'str' }).patch({ data: 2, updated_at: trx.fn.now() as unknown as Date });
      expect((await Thing.query(trx).where({ id: 'str' }).first())?.data).toBe(2);
      throw new Error('rollback');
    })).rejects.toThrow('rollback');
    expect((await Thing.query(db).where({ id: 'str' }).first())?.data).toBe('1');
  });

  it('a batch insert with ON CONFLICT DO NOTHING (composite key) inserts the new rows only', async () => {
    await Use.query(db).insert([{ a: '1', b: 'x' }]).onConflict(['a', 'b']).ignore();
    await Use.query(db).insert([{ a: '1', b: 'x' }, { a: '2', b: 'y' }]).onConflict(['a', 'b']).ignore();
    expect((await Use.query(db).orderBy('a')).map((u) => `${u.a}${u.b}`)).toEqual(['1x', '2y']);
  });

  it('one statement per call; first() adds LIMIT 1 like knex', async () => {
    statements.length = 0;
    await Thing.query(db).where({ id: 'obj' }).first();
    await Thing.query(db).where({ id: 'obj' }).patch({ data: { b: 1 } });
    await Thing.query(db).where({ id: 'none' }).delete();
    expect(statements).toHaveLength(3);
    expect(statements[0]).toMatch(/ limit \$\d+$/);
  });
});
