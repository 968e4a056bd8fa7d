import type { Migration } from '@tabula/db';

/** The data schema's migrations, in order. */
export const migrations: Migration[] = [];
