import type { Migration } from '@tabula/db';

/** The integrations schema's migrations, in order. */
export const migrations: Migration[] = [];
