import type { Knex } from 'knex';

/**
 * `object_bases`: the bases an object belongs to. An object joins the base
 * its first record was written in (or its base-scoped token's base), and the
 * copies of that base (a duplicate with data shares it); a file with no row
 * here belongs to no base yet. Filled from `objects.base_id`, which it
 * replaces (one object, one base, until a base could be copied).
 */
export async function createObjectBases(db: Knex, schema: string): Promise<void> {
  await db.schema.withSchema(schema).createTable('object_bases', (t) => {
    t.string('object_id', 24).notNullable().references('id').inTable(`${schema}.objects`).onDelete('CASCADE');
    t.string('base_id', 64).notNullable();
    t.primary(['object_id', 'base_id']);
    t.index(['base_id']);
  });
  await db.raw('INSERT INTO ??.object_bases (object_id, base_id) SELECT id, base_id FROM ??.objects WHERE base_id IS NOT NULL', [schema, schema]);
  await db.schema.withSchema(schema).alterTable('objects', (t) => { t.dropColumn('base_id'); });
}
