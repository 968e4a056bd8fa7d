import type { Migration } from '@tabula/db';
import { outboxMigration, processedEventsMigration } from '@tabula/events';
import { createCommentTables } from './001-init.migration';

/** The comments schema's migrations, in order. */
export const migrations: Migration[] = [
  { name: '001_comments', up: (db, schema) => createCommentTables(db, schema) },
  { name: '002_outbox', up: (db, schema) => outboxMigration(db, schema) },
  { name: '003_processed_events', up: (db, schema) => processedEventsMigration(db, schema) },
];
