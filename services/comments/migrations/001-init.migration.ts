import type { Knex } from 'knex';

/**
 * `comments`: one row per comment, soft-deleted in place. `seq` orders
 * comments created in the same instant. The partial index serves the list
 * (by record, oldest first) and the count (by table and record ids), both of
 * which only ever read live comments.
 */
export async function createCommentTables(db: Knex, schema: string): Promise<void> {
  await db.schema.withSchema(schema).createTable('comments', (t) => {
    t.string('id', 20).primary();
    t.bigIncrements('seq', { primaryKey: false });
    t.string('base_id', 20).notNullable();
    t.string('fk_workspace_id', 20);
    t.string('source_id', 20).notNullable();
    t.string('fk_model_id', 20).notNullable();
    t.text('row_id').notNullable();
    t.text('comment').notNullable();
    t.string('parent_comment_id', 20);
    t.string('created_by', 32).notNullable();
    t.text('created_by_email').notNullable().defaultTo('');
    t.string('resolved_by', 32);
    t.text('resolved_by_email');
    t.boolean('is_deleted').notNullable().defaultTo(false);
    t.boolean('is_edited').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.raw('clock_timestamp()'));
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.raw('clock_timestamp()'));
  });
  // base_id is carried so the count's per-record probe is an index-only scan
  await db.raw('CREATE INDEX comments_live_by_row_idx ON ??.comments (fk_model_id, row_id, created_at, seq) INCLUDE (base_id) WHERE NOT is_deleted', [schema]);
  await db.raw('CREATE INDEX comments_base_idx ON ??.comments (base_id)', [schema]);
  // Tables and bases whose comments were purged: a comment racing the purge is refused.
  await db.schema.withSchema(schema).createTable('purged_scopes', (t) => {
    t.string('scope_id', 40).primary();
    t.string('kind', 8).notNullable();
    t.timestamp('purged_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
}
