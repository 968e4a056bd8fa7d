import type { Knex } from 'knex';

/** The auth service's own PostgreSQL schema. */
export const AUTH_SCHEMA = 'auth';

/** A knex instance or an open transaction: repositories accept either. */
export type Db = Knex | Knex.Transaction;

/** A query builder on one of our tables. */
export function table(db: Db, name: string): Knex.QueryBuilder {
  return db.withSchema(AUTH_SCHEMA).table(name);
}
