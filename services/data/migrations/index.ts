import type { Migration } from '@tabula/db';
import { outboxMigration } from '@tabula/events';

/**
 * The data schema's migrations, in order. The service owns no tables but its
 * outbox; user tables are DDL of the meta service.
 */
export const migrations: Migration[] = [
  { name: '001_outbox', up: (db, schema) => outboxMigration(db, schema) },
];
