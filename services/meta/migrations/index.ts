import type { Migration } from '@tabula/db';

/** The meta schema's migrations, in order. */
export const migrations: Migration[] = [];
