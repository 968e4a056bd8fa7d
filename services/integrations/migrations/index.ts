import type { Migration } from '@tabula/db';
import { outboxMigration } from '@tabula/events';
import { createIntegrationTables } from './001-init.migration';

/** The integrations schema's migrations, in order. */
export const migrations: Migration[] = [
  { name: '001_init', up: (db, schema) => createIntegrationTables(db, schema) },
  { name: '002_outbox', up: (db, schema) => outboxMigration(db, schema) },
];
