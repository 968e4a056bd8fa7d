import type { Migration } from '@tabula/db';
import { createStorageTables } from './001-init.migration';
import { createObjectBases } from './002-object-bases.migration';

/** The storage schema's migrations, in order. */
export const migrations: Migration[] = [
  { name: '001_init', up: (db, schema) => createStorageTables(db, schema) },
  // an object may belong to several bases (a duplicated base shares its files with the copy)
  { name: '002_object_bases', up: (db, schema) => createObjectBases(db, schema) },
];
