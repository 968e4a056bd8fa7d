import type { Migration } from '@tabula/db';

/** The hooks schema's migrations, in order. */
export const migrations: Migration[] = [];
