import type { Knex } from 'knex';

/** The meta service's own schema. */
export const META_SCHEMA = 'meta';

/** A query builder on one of our metadata tables (knex or a transaction). */
export function metaTable(db: Knex, table: string): Knex.QueryBuilder {
  return db.withSchema(META_SCHEMA).from(table);
}
