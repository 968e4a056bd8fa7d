import knex, { type Knex } from 'knex';
import { types } from 'pg';

// User-table values are formatted by the data service: keep PostgreSQL's text for
// date/time types without zone, and read bigint/numeric as numbers (NocoDB does).
types.setTypeParser(1114, (v) => v); // timestamp
types.setTypeParser(1082, (v) => v); // date
types.setTypeParser(1083, (v) => v); // time
types.setTypeParser(20, (v) => { const n = Number(v); return Number.isSafeInteger(n) ? n : v; }); // int8
types.setTypeParser(1700, (v) => Number(v)); // numeric

export interface KnexOptions {
  url: string;
  poolMin?: number;
  poolMax?: number;
  /** Statement timeout in ms for every connection (0 = none). */
  statementTimeoutMs?: number;
  applicationName?: string;
}

/** A PostgreSQL knex instance with a bounded pool; objection models bind to it. */
export function createKnex(options: KnexOptions): Knex {
  const timeout = options.statementTimeoutMs ?? 0;
  return knex({
    client: 'pg',
    connection: { connectionString: options.url, application_name: options.applicationName ?? 'tabula' },
    pool: {
      min: options.poolMin ?? 0,
      max: options.poolMax ?? 10,
      afterCreate: (conn: { query: (sql: string, cb: (err: Error | null) => void) => void }, done: (err: Error | null, c: unknown) => void) => {
        if (!timeout) return done(null, conn);
        conn.query(`SET statement_timeout = ${Math.floor(timeout)}`, (err) => done(err, conn));
      },
    },
    acquireConnectionTimeout: 10_000,
  });
}

/** Resolves when the database answers a trivial query (readiness). */
export async function pingDatabase(db: Knex): Promise<void> {
  await db.raw('select 1');
}
