import type { Migration } from '@tabula/db';
import { createStorageTables } from './001-init.migration';

/** The storage schema's migrations, in order. */
export const migrations: Migration[] = [
  { name: '001_init', up: (db, schema) => createStorageTables(db, schema) },
];
