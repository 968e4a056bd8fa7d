import type { Migration } from '@tabula/db';

/** The storage schema's migrations, in order. */
export const migrations: Migration[] = [];
