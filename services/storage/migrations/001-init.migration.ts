import type { Knex } from 'knex';

/**
 * `objects`: one row per stored file (metadata; the bytes live in the blob
 * store). `object_uses`: which base/table/column an attachment was written
 * to (data claims it), for usage, downloadAttachment and garbage collection.
 */
export async function createStorageTables(db: Knex, schema: string): Promise<void> {
  await db.schema.withSchema(schema).createTable('objects', (t) => {
    t.string('id', 24).primary();
    t.text('key').notNullable().unique();
    t.text('title').notNullable();
    t.text('mimetype').notNullable();
    t.bigInteger('size').notNullable();
    t.string('checksum', 64).notNullable();
    t.string('scope', 16).notNullable().defaultTo('private');
    t.string('backend', 8).notNullable();
    t.string('uploaded_by', 64);
    t.string('base_id', 64).index();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    // set while no record is known to reference the object; GC deletes it after the grace period
    t.timestamp('unreferenced_since', { useTz: true }).defaultTo(db.fn.now());
  });
  await db.raw('CREATE INDEX objects_unreferenced_idx ON ??.objects (unreferenced_since) WHERE unreferenced_since IS NOT NULL', [schema]);
  await db.schema.withSchema(schema).createTable('object_uses', (t) => {
    t.string('object_id', 24).notNullable().references('id').inTable(`${schema}.objects`).onDelete('CASCADE');
    t.string('base_id', 64).notNullable();
    t.string('table_id', 64).notNullable();
    t.string('column_id', 64).notNullable();
    t.primary(['object_id', 'table_id', 'column_id']);
    t.index(['table_id', 'column_id']);
  });
}
