import type { Migration } from '@tabula/db';

/** The auth schema's migrations, in order. */
export const migrations: Migration[] = [];
