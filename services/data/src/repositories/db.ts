import type { Knex } from 'knex';

/** A knex or an open transaction on the table's source. */
export type Db = Knex | Knex.Transaction;
