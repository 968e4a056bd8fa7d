import type { Knex } from 'knex';

/** The hooks service's schema. */
export const HOOKS_SCHEMA = 'hooks';

/** A table of the hooks schema. */
export function tbl(db: Knex, name: 'hooks' | 'hook_filters' | 'deliveries' | 'hook_logs'): Knex.QueryBuilder {
  return db.withSchema(HOOKS_SCHEMA).table(name);
}
