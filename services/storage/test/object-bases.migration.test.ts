import knex, { type Knex } from 'knex';
import { runMigrations } from '@tabula/db';
import { createTestDatabase, type TestDatabase } from '@tabula/testing';
import { migrations } from '../migrations';

/**
 * Migration 002: an object may belong to several bases. The bases objects
 * had (`objects.base_id`) move to `object_bases`; a fresh upload (no base)
 * gets no row; the old column goes.
 */
let database: TestDatabase;
let db: Knex;

beforeAll(async () => {
  database = await createTestDatabase('tabula_storage_mig');
  db = knex({ client: 'pg', connection: database.url, pool: { min: 0, max: 2 } });
});
afterAll(async () => {
  await db?.destroy();
  await database?.drop();
});

const object = (id: string, baseId: string | null) => ({
  id, key: `uploads/${id}.txt`, title: `${id}.txt`, mimetype: 'text/plain', size: 1, checksum: 'c'.repeat(64), backend: 'local', uploaded_by: 'us1', base_id: baseId,
});

it('fills object_bases from objects.base_id, then drops the column', async () => {
  await runMigrations(db, 'storage', migrations.slice(0, 1));
  await db.withSchema('storage').table('objects').insert([object('at1', 'p1'), object('at2', null), object('at3', 'p2')]);
  expect(await runMigrations(db, 'storage', migrations)).toEqual(['002_object_bases']);
  expect(await db.withSchema('storage').from('object_bases').orderBy('object_id').select('object_id', 'base_id'))
    .toEqual([{ object_id: 'at1', base_id: 'p1' }, { object_id: 'at3', base_id: 'p2' }]);
  expect(await db.schema.withSchema('storage').hasColumn('objects', 'base_id')).toBe(false);
  // an object's bases go with it
  await db.withSchema('storage').from('objects').where({ id: 'at1' }).delete();
  expect(await db.withSchema('storage').from('object_bases').pluck('object_id')).toEqual(['at3']);
});
