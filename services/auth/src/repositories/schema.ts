import type { Knex } from 'knex';

/** The auth service's own PostgreSQL schema. */
export const AUTH_SCHEMA = 'auth';

/** A knex instance or an open transaction: repositories accept either. */
export type Db = Knex | Knex.Transaction;
