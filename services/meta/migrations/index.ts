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
];
