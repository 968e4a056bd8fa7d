import type { Knex } from 'knex';

/** hooks and their stored filters (NocoDB shape, a tree by fk_parent_id). */
export async function createHookTables(db: Knex, schema: string): Promise<void> {
  await db.schema.withSchema(schema).createTable('hooks', (t) => {
    t.string('id', 20).primary();
    t.string('fk_model_id', 20).notNullable().index();
    t.string('base_id', 20).notNullable().index();
    t.text('title').notNullable();
    t.text('description');
    t.string('event', 16).notNullable();
    // a string for v1/v2, an array for v3
    t.jsonb('operation').notNullable();
    t.jsonb('notification').notNullable();
    t.boolean('active').notNullable().defaultTo(true);
    t.boolean('async').notNullable().defaultTo(true);
    t.integer('retries').notNullable().defaultTo(10);
    t.integer('retry_interval').notNullable().defaultTo(60000);
    t.integer('timeout').notNullable().defaultTo(60000);
    t.string('version', 4).notNullable();
    t.boolean('condition').notNullable().defaultTo(false);
    t.boolean('trigger_field').notNullable().defaultTo(false);
    t.jsonb('trigger_fields').notNullable().defaultTo('[]');
    // AES-256-GCM sealed signing secret: shown once, needed in clear to sign
    t.text('secret_sealed').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
  await db.schema.withSchema(schema).createTable('hook_filters', (t) => {
    t.string('id', 20).primary();
    t.string('fk_hook_id', 20).notNullable().references('id').inTable(`${schema}.hooks`).onDelete('CASCADE').index();
    t.string('fk_parent_id', 20);
    t.string('fk_column_id', 20);
    t.string('comparison_op', 32);
    t.string('comparison_sub_op', 32);
    t.jsonb('value');
    t.string('logical_op', 8).notNullable().defaultTo('and');
    t.boolean('is_group').notNullable().defaultTo(false);
    t.integer('order').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
}

/** The delivery schedule and the per-attempt logs. */
export async function createDeliveryTables(db: Knex, schema: string): Promise<void> {
  await db.schema.withSchema(schema).createTable('deliveries', (t) => {
    t.uuid('id').primary();
    t.string('hook_id', 20).notNullable().references('id').inTable(`${schema}.hooks`).onDelete('CASCADE').index();
    t.text('event_id').notNullable();
    t.string('event', 16).notNullable();
    t.string('operation', 16).notNullable();
    t.jsonb('payload').notNullable();
    t.jsonb('user');
    t.boolean('test_call').notNullable().defaultTo(false);
    t.integer('attempt').notNullable().defaultTo(0);
    t.timestamp('next_attempt_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.string('status', 12).notNullable().defaultTo('pending');
    t.timestamp('locked_until', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['event_id']);
  });
  await db.raw(`CREATE INDEX deliveries_due_idx ON ??.deliveries (next_attempt_at) WHERE status IN ('pending', 'delivering')`, [schema]);
  await db.schema.withSchema(schema).createTable('hook_logs', (t) => {
    t.string('id', 20).primary();
    t.string('fk_hook_id', 20).notNullable().references('id').inTable(`${schema}.hooks`).onDelete('CASCADE');
    t.string('base_id', 20);
    t.string('fk_model_id', 20);
    t.uuid('delivery_id');
    t.integer('attempt').notNullable().defaultTo(1);
    t.string('type', 8).notNullable().defaultTo('URL');
    t.string('event', 16).notNullable();
    t.string('operation', 16).notNullable();
    t.jsonb('payload');
    t.jsonb('response');
    t.text('error_message');
    t.integer('execution_time').notNullable().defaultTo(0);
    t.text('triggered_by');
    t.boolean('test_call').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['fk_hook_id', 'created_at']);
    t.index(['created_at']);
  });
}
