import type { Migration } from '@tabula/db';
import { processedEventsMigration } from '@tabula/events';
import { createDeliveryTables, createHookTables } from './001-init.migration';

/** The hooks schema's migrations, in order. */
export const migrations: Migration[] = [
  {
    name: '001_init',
    up: async (db, schema) => {
      await createHookTables(db, schema);
      await createDeliveryTables(db, schema);
    },
  },
  { name: '002_processed_events', up: (db, schema) => processedEventsMigration(db, schema) },
];
