import type { Migration } from '@tabula/db';
import { outboxMigration } from '@tabula/events';
import { createBaseTables, createModelTables, createViewTables } from './001-init.migration';

/** The meta schema's migrations, in order. */
export const migrations: Migration[] = [
  {
    name: '001_init',
    up: async (db, schema) => {
      await createBaseTables(db, schema);
      await createModelTables(db, schema);
      await createViewTables(db, schema);
    },
  },
  { name: '002_outbox', up: (db, schema) => outboxMigration(db, schema) },
  {
    // sources built on an integration (issue 13): the config is the integration's, refreshed on its updates
    name: '003_source_integration',
    up: async (db, schema) => {
      await db.schema.withSchema(schema).alterTable('sources', (t) => { t.string('fk_integration_id', 20).index(); });
    },
  },
  {
    // NocoDB's view types (issue 29): type-specific settings (form heading, kanban grouping field, gallery
    // cover, calendar range, grid row height) and per-view column width and form-field settings
    name: '004_view_details',
    up: async (db, schema) => {
      await db.schema.withSchema(schema).alterTable('views', (t) => { t.jsonb('details'); });
      await db.schema.withSchema(schema).alterTable('view_columns', (t) => { t.string('width', 20); t.jsonb('details'); });
    },
  },
];
