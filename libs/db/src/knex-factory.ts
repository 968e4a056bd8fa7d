import knex, { type Knex } from 'knex';
import { types } from 'pg';
import { queryAsText, type PgQueryable } from './pg-query';

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
  /**
   * Where knex's own warnings and errors go (pool acquire failures, deprecations): one JSON line
   * per kind of message, at most once per `logIntervalMs`, without stack traces. Default: knex prints them.
   */
  logger?: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
  logIntervalMs?: number;
}

/**
 * knex's `log` option over a structured logger: a message's first line only
 * (no stack), and each kind of message (its text without numbers) at most once
 * per interval, with how many were left out since the last line.
 */
export function knexLog(logger: NonNullable<KnexOptions['logger']>, intervalMs = 60_000) {
  const seen = new Map<string, { at: number; suppressed: number }>();
  const emit = (level: 'warn' | 'error') => (message: unknown) => {
    const text = String(message instanceof Error ? message.message : message).split('\n')[0].trim();
    const key = `${level}:${text.replace(/\d+/g, '#')}`;
    const now = Date.now();
    const last = seen.get(key);
    if (last && now - last.at < intervalMs) { last.suppressed += 1; return; }
    seen.set(key, { at: now, suppressed: 0 });
    logger[level]({ source: 'knex', err: text, ...(last ? { suppressedSinceLast: last.suppressed } : {}), logIntervalMs: intervalMs }, 'database driver');
  };
  return { warn: emit('warn'), error: emit('error'), deprecate: emit('warn'), debug: () => undefined };
}

/** A PostgreSQL knex instance with a bounded pool; objection models bind to it. */
export function createKnex(options: KnexOptions): Knex {
  const timeout = options.statementTimeoutMs ?? 0;
  return knex({
    client: TextQueryClient as unknown as typeof Knex.Client,
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
    ...(options.logger ? { log: knexLog(options.logger, options.logIntervalMs) } : {}),
  });
}

interface KnexQueryObject {
  sql?: string;
  bindings?: unknown[];
  options?: object;
  response?: unknown;
}

type KnexPgClient = new (config: Knex.Config) => { _query(connection: unknown, obj: KnexQueryObject): Promise<KnexQueryObject> };
// knex's own PostgreSQL client (the class `client: 'pg'` names); knex ships no types for its dialect modules.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const KnexPg = require('knex/lib/dialects/postgres') as KnexPgClient;

/**
 * knex's PostgreSQL client, sending each query as text and values: knex's
 * own sends a config object (`{ text, values }`), which pg copies through its
 * property descriptors before it builds the Query; this client builds the
 * same Query from the text, without the copy ({@link queryAsText}). A query
 * with driver options (`.options({ rowMode })`, rare) goes knex's way.
 * Transactions' clients are made from this class's prototype, so they send
 * the same way.
 */
class TextQueryClient extends KnexPg {
  /** Named as the client it extends: `client.config.client` still reads 'pg' (code that checks the dialect by it). */
  constructor(config: Knex.Config) {
    super({ ...config, client: 'pg' });
  }

  override _query(connection: unknown, obj: KnexQueryObject): Promise<KnexQueryObject> {
    if (obj.options || !obj.sql) return super._query(connection, obj);
    return queryAsText(connection as PgQueryable, obj.sql, obj.bindings ?? []).then((response) => {
      obj.response = response;
      return obj;
    });
  }
}

/** Resolves when the database answers a trivial query (readiness). */
export async function pingDatabase(db: Knex): Promise<void> {
  await db.raw('select 1');
}
