import type { Knex } from 'knex';

/** Bases and their data sources. */
export async function createBaseTables(db: Knex, schema: string): Promise<void> {
  const s = () => db.schema.withSchema(schema);
  await s().createTable('bases', (t) => {
    t.string('id', 20).primary();
    t.string('title', 255).notNullable();
    t.text('description');
    t.string('color', 32);
    t.jsonb('meta');
    t.float('order');
    t.boolean('deleted').notNullable().defaultTo(false);
    t.string('created_by', 20);
    t.timestamps(true, true);
  });
  await s().createTable('sources', (t) => {
    t.string('id', 20).primary();
    t.string('base_id', 20).notNullable().references('id').inTable(`${schema}.bases`).onDelete('CASCADE');
    t.string('alias', 255);
    t.string('type', 16).notNullable();
    t.boolean('is_meta').notNullable().defaultTo(false);
    t.string('schema_name', 63);
    t.text('config');
    t.boolean('enabled').notNullable().defaultTo(true);
    t.float('order');
    t.jsonb('meta');
    t.timestamps(true, true);
    t.index(['base_id']);
  });
}

/** Tables and columns. */
export async function createModelTables(db: Knex, schema: string): Promise<void> {
  const s = () => db.schema.withSchema(schema);
  await s().createTable('tables', (t) => {
    t.string('id', 20).primary();
    t.string('base_id', 20).notNullable().references('id').inTable(`${schema}.bases`).onDelete('CASCADE');
    t.string('source_id', 20).notNullable().references('id').inTable(`${schema}.sources`).onDelete('CASCADE');
    t.string('table_name', 255).notNullable();
    t.string('title', 255).notNullable();
    t.string('type', 16).notNullable().defaultTo('table');
    t.jsonb('meta');
    t.text('description');
    t.float('order');
    t.boolean('deleted').notNullable().defaultTo(false);
    t.timestamps(true, true);
    t.index(['base_id', 'source_id']);
  });
  await s().createTable('columns', (t) => {
    t.string('id', 20).primary();
    t.string('fk_model_id', 20).notNullable().references('id').inTable(`${schema}.tables`).onDelete('CASCADE');
    t.string('base_id', 20).notNullable();
    t.string('title', 255).notNullable();
    t.string('column_name', 255);
    t.string('uidt', 32).notNullable();
    t.string('dt', 64);
    t.string('dtxp', 255);
    t.string('dtxs', 64);
    for (const flag of ['pk', 'pv', 'rqd', 'unique', 'ai', 'au', 'system']) t.boolean(flag).notNullable().defaultTo(false);
    t.text('cdf');
    t.jsonb('meta');
    t.float('order');
    t.text('description');
    t.jsonb('col_options');
    t.timestamps(true, true);
    t.index(['fk_model_id']);
  });
}

/** Views, their columns, sorts and filters. */
export async function createViewTables(db: Knex, schema: string): Promise<void> {
  const s = () => db.schema.withSchema(schema);
  await s().createTable('views', (t) => {
    t.string('id', 20).primary();
    t.string('fk_model_id', 20).notNullable().references('id').inTable(`${schema}.tables`).onDelete('CASCADE');
    t.string('base_id', 20).notNullable();
    t.string('title', 255).notNullable();
    t.string('type', 16).notNullable().defaultTo('grid');
    t.boolean('is_default').notNullable().defaultTo(false);
    t.float('order');
    t.jsonb('meta');
    t.timestamps(true, true);
    t.index(['fk_model_id']);
  });
  await s().createTable('view_columns', (t) => {
    t.string('id', 20).primary();
    t.string('fk_view_id', 20).notNullable().references('id').inTable(`${schema}.views`).onDelete('CASCADE');
    t.string('fk_column_id', 20).notNullable().references('id').inTable(`${schema}.columns`).onDelete('CASCADE');
    t.boolean('show').notNullable().defaultTo(true);
    t.float('order');
    t.unique(['fk_view_id', 'fk_column_id']);
  });
  await s().createTable('sorts', (t) => {
    t.string('id', 20).primary();
    t.string('fk_view_id', 20).notNullable().references('id').inTable(`${schema}.views`).onDelete('CASCADE');
    t.string('fk_column_id', 20).notNullable().references('id').inTable(`${schema}.columns`).onDelete('CASCADE');
    t.string('direction', 16).notNullable();
    t.float('order').notNullable();
    t.string('fk_level_id', 40);
    t.timestamps(true, true);
    t.index(['fk_view_id']);
  });
  await s().createTable('filters', (t) => {
    t.string('id', 20).primary();
    t.string('fk_view_id', 20).references('id').inTable(`${schema}.views`).onDelete('CASCADE');
    t.string('fk_hook_id', 20);
    t.string('fk_parent_id', 20).references('id').inTable(`${schema}.filters`).onDelete('CASCADE');
    t.string('fk_column_id', 20).references('id').inTable(`${schema}.columns`).onDelete('CASCADE');
    t.string('base_id', 20).notNullable();
    t.string('comparison_op', 32);
    t.string('comparison_sub_op', 32);
    t.jsonb('value');
    t.string('logical_op', 8);
    t.boolean('is_group').notNullable().defaultTo(false);
    t.float('order');
    t.timestamps(true, true);
    t.index(['fk_view_id']);
    t.index(['fk_hook_id']);
  });
}
