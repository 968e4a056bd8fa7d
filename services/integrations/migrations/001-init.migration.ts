import type { Knex } from 'knex';

/** integrations (config sealed with the key ring) and their key-value store. */
export async function createIntegrationTables(db: Knex, schema: string): Promise<void> {
  await db.schema.withSchema(schema).createTable('integrations', (t) => {
    t.string('id', 20).primary();
    t.string('title', 128).notNullable();
    t.string('type', 32).notNullable();
    t.string('sub_type', 64).notNullable();
    t.boolean('enabled').notNullable().defaultTo(true);
    t.boolean('is_private').notNullable().defaultTo(false);
    t.boolean('is_default').notNullable().defaultTo(false);
    t.string('created_by', 20).notNullable();
    t.string('fk_workspace_id', 20);
    // AES-256-GCM sealed JSON (`v2.<keyId>.<iv>.<tag>.<data>`), never plaintext
    t.text('config_sealed').notNullable();
    t.jsonb('meta');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['type']);
  });
  // one default per type (per workspace; OSS has none)
  await db.raw(`CREATE UNIQUE INDEX integrations_one_default_idx ON ??.integrations (type, coalesce(fk_workspace_id, '')) WHERE is_default`, [schema]);
  await db.schema.withSchema(schema).createTable('store', (t) => {
    t.bigIncrements('id');
    t.string('fk_integration_id', 20).notNullable().references('id').inTable(`${schema}.integrations`).onDelete('CASCADE');
    t.string('key', 255).notNullable();
    t.jsonb('value').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.unique(['fk_integration_id', 'key']);
  });
}
