import type { Knex } from 'knex';
import { ident } from './migrations';
import { laneOf, type ConnectionLane, type LaneConnection } from './connection-lane';
import { queryAsText, type PgQueryable } from './pg-query';

/**
 * Named (server-side prepared) statements on a PostgreSQL knex pool, for the
 * hot reads whose SQL text is compiled once and reused (data's sql-cache):
 * PostgreSQL parses and plans such a statement once per connection instead of
 * on every request, and the request skips knex's query runner.
 *
 * Bounded: each pooled connection keeps at most `perConnection` statements; the
 * least recently used one is `DEALLOCATE`d before a new one is prepared, so a
 * long-lived connection never accumulates the statements of every table it
 * ever served. A statement is never reused across metadata changes: callers
 * give each compiled text its own name (a new table handle means new names).
 * A plan invalidated under the statement ("cached plan must not change result
 * type", after a concurrent column type change) is dropped and the query runs
 * once more, unprepared.
 *
 * Counted like any knex query: it emits knex's `query` event (statement-count
 * tests and query logs see it).
 */

/** A statement: its name (unique per text, for the life of the process) and positional (`$1`) text. */
export interface PreparedStatement {
  name: string;
  text: string;
}

interface PgConnection extends LaneConnection, PgQueryable {
  /** pg's own record of the statements parsed on this connection (name → text). */
  connection?: { parsedStatements?: Record<string, string> };
  __knexUid?: string;
}

interface KnexClient {
  acquireConnection(): Promise<PgConnection>;
  releaseConnection(connection: PgConnection): Promise<unknown>;
  positionBindings(sql: string): string;
  emit(event: string, payload: unknown): boolean;
}

/** Statements prepared per connection, least recently used first. */
const preparedOn = new WeakMap<PgConnection, Map<string, true>>();
let sequence = 0;

/** Default bound per connection (SVC_PG_PREPARED_PER_CONNECTION; 0 turns named statements off). */
export const DEFAULT_PREPARED_PER_CONNECTION = 100;

/** A process-unique statement name for `sql` compiled by knex (`?` placeholders). */
export function prepareStatement(db: Knex, sql: string): PreparedStatement {
  sequence += 1;
  return { name: `tb_${sequence.toString(36)}`, text: (db.client as unknown as KnexClient).positionBindings(sql) };
}

/** True when `db` is a plain PostgreSQL pool (not a transaction, not another dialect). */
export function canPrepare(db: Knex | Knex.Transaction): boolean {
  if ((db as Knex.Transaction).isTransaction) return false;
  const dialect = (db.client as { dialect?: string }).dialect;
  return dialect === 'postgresql' || dialect === 'postgres';
}

async function forget(connection: PgConnection, name: string): Promise<void> {
  preparedOn.get(connection)?.delete(name);
  const parsed = connection.connection?.parsedStatements;
  if (parsed && parsed[name] !== undefined) {
    await queryAsText(connection, `DEALLOCATE ${ident(name)}`);
    delete parsed[name];
  }
}

/** Makes room for `name` on the connection (evicting the least recently used statement) and marks it used. */
async function admit(connection: PgConnection, name: string, perConnection: number): Promise<void> {
  let names = preparedOn.get(connection);
  if (!names) {
    names = new Map();
    preparedOn.set(connection, names);
  }
  if (names.delete(name)) {
    names.set(name, true);
    return;
  }
  while (names.size >= perConnection) {
    const oldest = names.keys().next().value as string;
    await forget(connection, oldest);
  }
  names.set(name, true);
}

function planChanged(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e.code === '0A000' && /cached plan must not change result type/i.test(e.message ?? '');
}

/**
 * Runs a prepared statement on a connection of the pool and answers its rows.
 * `perConnection` 0 runs it unnamed (no server-side statement kept). The
 * connection comes from the pool's lane when one is idle there (taken without
 * a promise) and goes back to it ({@link ConnectionLane}); a statement already
 * prepared on the connection (the usual case) is marked used without an await.
 */
export function queryPrepared<T>(db: Knex, statement: PreparedStatement, values: unknown[], perConnection = DEFAULT_PREPARED_PER_CONNECTION): Promise<T[]> {
  const client = db.client as unknown as KnexClient;
  const lane = laneOf(client);
  const ready = lane.take();
  if (ready) return onConnection<T>(client, lane, ready, statement, values, perConnection);
  return lane.acquire().then((connection) => onConnection<T>(client, lane, connection, statement, values, perConnection));
}

function onConnection<T>(
  client: KnexClient, lane: ConnectionLane<PgConnection>, connection: PgConnection, statement: PreparedStatement, values: unknown[], perConnection: number,
): Promise<T[]> {
  let answer: Promise<{ rows: unknown[] }>;
  try {
    client.emit('query', { __knexUid: connection.__knexUid, method: 'raw', sql: statement.text, bindings: values, prepared: statement.name });
    answer = perConnection > 0 && touch(connection, statement.name) ? queryAsText(connection, statement.text, values, statement.name) : prepareAndRun(connection, statement, values, perConnection);
  } catch (err) {
    lane.give(connection);
    return Promise.reject(err);
  }
  return answer.then(
    (result) => {
      lane.give(connection);
      return result.rows as T[];
    },
    async (err: unknown) => {
      try {
        if (perConnection <= 0 || !planChanged(err)) throw err;
        await forget(connection, statement.name);
        return (await queryAsText(connection, statement.text, values)).rows as T[];
      } finally {
        lane.give(connection);
      }
    },
  );
}

/** Runs a statement not yet prepared on the connection: unnamed (`perConnection` 0), or admitted then named. */
async function prepareAndRun(connection: PgConnection, statement: PreparedStatement, values: unknown[], perConnection: number): Promise<{ rows: unknown[] }> {
  if (perConnection <= 0) return queryAsText(connection, statement.text, values);
  await admit(connection, statement.name, perConnection);
  return queryAsText(connection, statement.text, values, statement.name);
}

/** Marks `name` the most recently used statement of the connection when it is prepared there; false when it is not. */
function touch(connection: PgConnection, name: string): boolean {
  const names = preparedOn.get(connection);
  if (!names?.delete(name)) return false;
  names.set(name, true);
  return true;
}

/**
 * A `knex.raw` text (`??` identifiers, `?` values, `\?` a literal `?`)
 * compiled once into a named statement: the identifiers given at compile time
 * are inlined (quoted by knex), the values stay parameters. `values(bindings)`
 * picks the value bindings out of a full binding list of the same shape, so a
 * caller builds its bindings as it would for `knex.raw` and runs the template
 * with any identifiers equal to those it was compiled with.
 */
export interface RawTemplate {
  statement: PreparedStatement;
  values(bindings: readonly unknown[]): unknown[];
}

/** Compiles a raw text and its bindings (the identifiers among them fix the statement). */
export function rawTemplate(db: Knex, sql: string, bindings: readonly unknown[]): RawTemplate {
  const isValue = (sql.match(/\\?\?\??/g) ?? []).filter((m) => m !== '\\?').map((m) => m === '?');
  const compiled = db.raw(sql, bindings as Knex.RawBinding[]).toSQL();
  const statement = prepareStatement(db, compiled.sql);
  return {
    statement,
    values: (all) => all.filter((_, i) => isValue[i]),
  };
}
