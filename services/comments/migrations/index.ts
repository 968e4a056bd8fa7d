import type { Migration } from '@tabula/db';

/** The comments schema's migrations, in order. */
export const migrations: Migration[] = [];
