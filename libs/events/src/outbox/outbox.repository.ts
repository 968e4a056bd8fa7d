import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { ident } from '@tabula/db';
import type { EventHeaders, PublishInput } from '../event-bus';

/** A row of `<schema>.outbox` as the relay reads it. */
export interface OutboxRow {
  id: string;
  topic: string;
  key: string;
  type: string;
  version: number;
  /** The payload, joined from the base64 parts the claim answers (see claimQuery). */
  payload: Uint8Array;
  headers: EventHeaders;
  created_at: Date;
}

/** A pooled PostgreSQL connection as knex hands it out (node-pg's Client). */
interface PgConnection {
  query(text: string): Promise<{ rows: unknown[] } | { rows: unknown[] }[]>;
  __knex__disposed?: unknown;
}

/** A claimed row as the claim answers it: one part of its payload, as base64. */
interface ClaimedPart extends Omit<OutboxRow, 'payload'> {
  seq: string | number;
  /** 1, 2, … within the row. */
  part: string | number;
  payload: string;
  /** The whole payload's length in bytes. */
  size: string | number;
}

/**
 * Payload bytes per part of the claim's answer: their base64 (66 kB with
 * PostgreSQL's line breaks) stays under V8's 128 kB large-object threshold.
 */
export const PAYLOAD_PART_BYTES = 49_152;

/**
 * The claim: the outbox's advisory lock taken once (a relay that does not get
 * it claims nothing) and the oldest unpublished rows locked. `ident` has
 * checked the schema (`[a-z_][a-z0-9_]*`), so it is also safe as the lock
 * key's string literal. A simple-protocol query answers text: the payload
 * comes as base64 (4/3 of its size; bytea's hex text is 2×, and turning it
 * into a JS string then decoding it was 1 ms of the relay's CPU per 300 kB
 * bulk event, base64 half of that), in parts of {@link PAYLOAD_PART_BYTES}
 * (one answer row per part, in order): a string over 128 kB lands in V8's
 * large-object space, whose pages are mapped fresh for each such string (a
 * 400 kB base64 text cost 76 minor page faults, 1.7 ms, on this machine).
 */
export function claimQuery(schema: string, limit: number): string {
  return `WITH lock AS MATERIALIZED (SELECT pg_try_advisory_xact_lock(hashtext('tabula.outbox'), hashtext('${schema}')) AS held), ` +
    `claimed AS MATERIALIZED (SELECT id, seq, topic, key, type, version, payload, headers, created_at FROM ${ident(schema)}.outbox ` +
    `WHERE (SELECT held FROM lock) AND published_at IS NULL ORDER BY seq LIMIT ${limit} FOR UPDATE SKIP LOCKED) ` +
    `SELECT c.id, c.seq, c.topic, c.key, c.type, c.version, p.part, octet_length(c.payload) AS size, encode(substring(c.payload FROM p.at::int FOR ${PAYLOAD_PART_BYTES}), 'base64') AS payload, ` +
    `CASE WHEN p.part = 1 THEN c.headers END AS headers, c.created_at ` +
    `FROM claimed c CROSS JOIN LATERAL generate_series(1, greatest(octet_length(c.payload), 1), ${PAYLOAD_PART_BYTES}) WITH ORDINALITY AS p(at, part) ` +
    'ORDER BY c.seq, p.part';
}

/**
 * The claimed rows from the claim's answer: each row's parts (consecutive,
 * in order) decoded and joined into its payload.
 * PostgreSQL's base64 breaks lines every 76 characters: Buffer.from skips them.
 */
export function joinClaimedParts(parts: ClaimedPart[]): (OutboxRow & { seq: string | number })[] {
  const rows: (OutboxRow & { seq: string | number })[] = [];
  for (let i = 0; i < parts.length;) {
    let end = i + 1;
    while (end < parts.length && String(parts[end].seq) === String(parts[i].seq)) end += 1;
    // Each part decoded straight into the payload: no intermediate buffers, no zero fill. An own
    // ArrayBuffer (allocUnsafeSlow: never a pooled slab), as consumers may keep the payload.
    const size = Number(parts[i].size);
    const payload = Buffer.allocUnsafeSlow(size);
    let at = 0;
    for (let k = i; k < end; k++) at += payload.write(parts[k].payload, at, 'base64');
    if (at !== size) throw new Error(`outbox payload of ${String(parts[i].seq)}: ${at} bytes decoded, ${size} stored`);
    // Field by field, not a rest/spread copy of the driver's row (several µs per row in V8).
    const head = parts[i];
    rows.push({
      id: head.id, seq: head.seq, topic: head.topic, key: head.key, type: head.type, version: head.version,
      payload: new Uint8Array(payload.buffer, payload.byteOffset, size), headers: head.headers, created_at: head.created_at,
    });
    i = end;
  }
  return rows;
}

/**
 * Run before the claim, inside its transaction (reset at its end): the claim
 * walks `outbox_unpublished_idx` with a plain index scan. Marking a row sent
 * leaves its old version's entry in that partial index until VACUUM; a plain
 * index scan that meets such an entry flags it dead (once no snapshot can see
 * it), and later scans skip flagged entries without visiting the table. The
 * planner's favourite, a bitmap scan, never flags entries: it visited every
 * row published since the last VACUUM on every claim (1.7 ms per claim after
 * a few seconds of single inserts, more than the inserts themselves; 0.13 ms
 * with the plain scan).
 */
export const CLAIM_SETTINGS = 'SET LOCAL enable_bitmapscan = off';

/**
 * The claim and the mark are SQL-level prepared statements (`PREPARE`, once
 * per connection and outbox): the claim's text is parsed, analysed and
 * planned once per connection instead of on every batch (about 170 µs of
 * PostgreSQL's time per claim, 500 → 330 µs for a claim and its rollback), and
 * the mark takes its seqs as one array, so every batch runs the same statement.
 * Executed from simple-protocol messages (`EXECUTE`), so a batch stays two
 * round trips. The names carry the schema (a checked identifier) and the
 * claim's the batch size, a literal of its text: a cached generic plan is
 * then the plan of that LIMIT (under the claim's settings: the plain index
 * scan), never one guessed for an unknown LIMIT.
 */
const preparedOutboxes = new WeakMap<PgConnection, Set<string>>();

/** A statement's name for an outbox: the schema itself when short enough (names are cut at 63 bytes), else its hash. */
function statementName(kind: string, schema: string): string {
  ident(schema);
  const tag = schema.length <= 36 ? schema : createHash('sha256').update(schema).digest('hex').slice(0, 32);
  return `tabula_outbox_${kind}_${tag}`;
}
/** The claim's name for a batch size (an integer, checked by relayBatch). */
export const claimName = (schema: string, limit: number) => statementName(`claim${limit}`, schema);
const markName = (schema: string) => statementName('mark', schema);

/**
 * Prepares the claim and the mark on the connection unless they already are
 * (asking the session which are: a connection that lost them, see
 * {@link forgetPrepared}, may still hold one).
 */
async function prepareOn(conn: PgConnection, schema: string, limit: number): Promise<void> {
  const prepared = `${schema} ${limit}`;
  let schemas = preparedOutboxes.get(conn);
  if (schemas?.has(prepared)) return;
  const names = [claimName(schema, limit), markName(schema)];
  const held = (await conn.query(`SELECT name FROM pg_prepared_statements WHERE name IN ('${names.join("', '")}')`)) as { rows: { name: string }[] };
  const have = new Set(held.rows.map((row) => row.name));
  const statements = [
    `PREPARE ${names[0]} AS ${claimQuery(schema, limit)}`,
    `PREPARE ${names[1]} (bigint[]) AS UPDATE ${ident(schema)}.outbox SET published_at = CURRENT_TIMESTAMP, attempts = attempts + 1, last_error = NULL ` +
      'WHERE published_at IS NULL AND seq = ANY($1)',
  ].filter((_, i) => !have.has(names[i]));
  if (statements.length > 0) await conn.query(statements.join('; '));
  if (!schemas) {
    schemas = new Set();
    preparedOutboxes.set(conn, schemas);
  }
  schemas.add(prepared);
}

/** After "prepared statement does not exist" (a session reset under the pool): prepare again on the next batch. */
function forgetPrepared(conn: PgConnection, error: unknown): boolean {
  if ((error as { code?: string })?.code !== '26000') return false;
  preparedOutboxes.delete(conn);
  return true;
}

/**
 * `BEGIN` and the claim (preparing it first on a connection new to the
 * outbox). A session that lost its statements (DISCARD ALL, DEALLOCATE ALL
 * under the pool) rolls back, prepares them again and claims once more.
 */
async function claim(conn: PgConnection, schema: string, limit: number): Promise<{ rows: ClaimedPart[] }[]> {
  await prepareOn(conn, schema, limit);
  try {
    return (await conn.query(claimSql(schema, limit))) as { rows: ClaimedPart[] }[];
  } catch (error) {
    if (!forgetPrepared(conn, error)) throw error;
    await conn.query('ROLLBACK');
    await prepareOn(conn, schema, limit);
    return (await conn.query(claimSql(schema, limit))) as { rows: ClaimedPart[] }[];
  }
}

/** `BEGIN`, the claim's settings and the claim, as one simple-protocol message (three results). */
function claimSql(schema: string, limit: number): string {
  return `BEGIN; ${CLAIM_SETTINGS}; EXECUTE ${claimName(schema, limit)}`;
}

/** The claimed rows marked sent, by `seq` (integers read back from the database, checked), and `COMMIT`. */
function markSql(schema: string, rows: { seq: string | number }[]): string {
  const seqs = rows.map((row) => {
    const seq = String(row.seq);
    if (!/^[0-9]+$/.test(seq)) throw new Error(`outbox seq is not an integer: ${seq}`);
    return seq;
  });
  return `EXECUTE ${markName(schema)}('{${seqs.join(',')}}'); COMMIT`;
}

/**
 * One relay batch as one PostgreSQL transaction. A transaction-scoped advisory
 * lock per outbox means one relay publishes a schema's outbox at a time, so rows
 * leave in `seq` order and per-key order survives several replicas; it is
 * non-blocking (a relay that loses claims nothing and returns; the holder
 * drains until the outbox is empty). Rows are locked `FOR UPDATE SKIP LOCKED`,
 * so no row is ever claimed twice. Sent in TWO round trips instead of
 * five (BEGIN, lock, claim, mark, COMMIT): the first message is
 * `BEGIN; <settings>; EXECUTE <claim>` (lock and claim in one prepared
 * SELECT), the second `EXECUTE <mark>('{seqs}'); COMMIT`. Both go as
 * simple-protocol multi-statement queries on one pooled connection, so their
 * text carries no parameters: the schema is a checked identifier (a service's
 * own: `ident`), the limit a checked integer, and the claimed rows are named by their `seq` (integers read
 * back from the database and checked to be integers). A connection new to the outbox prepares both first. The lock, claim, publish-before-mark
 * order and the rollback on failure are those of the five-statement transaction.
 * `publish` runs between the two messages; if it throws, the transaction rolls
 * back (a connection that cannot even roll back is not returned to the pool).
 */
export async function relayBatch(knex: Knex, schema: string, limit: number, publish: (rows: OutboxRow[]) => Promise<void>): Promise<number> {
  if (!Number.isInteger(limit) || limit < 1) throw new Error('relay batch size must be a positive integer');
  const client = knex.client as { acquireConnection(): Promise<PgConnection>; releaseConnection(c: PgConnection): Promise<void> };
  const conn = await client.acquireConnection();
  // Whether a transaction may be open on the connection (ROLLBACK on failure).
  let open = true;
  try {
    const rows = joinClaimedParts((await claim(conn, schema, limit))[2].rows); // results of BEGIN, SET LOCAL, the claim
    if (rows.length === 0) {
      await conn.query('COMMIT');
      open = false;
      return 0;
    }
    await publish(rows);
    await conn.query(markSql(schema, rows));
    open = false;
    return rows.length;
  } catch (error) {
    forgetPrepared(conn, error);
    if (open) {
      await conn.query('ROLLBACK').catch((rollbackError: unknown) => {
        // Never hand a connection stuck in a transaction back to the pool: knex
        // discards connections marked disposed when they are next validated.
        conn.__knex__disposed = rollbackError;
      });
    }
    throw error;
  } finally {
    await client.releaseConnection(conn);
  }
}

/** Records a failed attempt (after the claiming transaction rolled back). */
export async function recordFailure(knex: Knex, schema: string, ids: string[], error: unknown): Promise<void> {
  await knex
    .withSchema(schema)
    .table('outbox')
    .whereIn('id', ids)
    .whereNull('published_at')
    .update({ attempts: knex.raw('attempts + 1'), last_error: String((error as Error)?.message ?? error).slice(0, 2000) });
}

/** Deletes up to `limit` rows published before `cutoff`; returns how many. */
export function deletePublishedBefore(knex: Knex, schema: string, cutoff: Date, limit: number): Promise<number> {
  const oldest = knex.withSchema(schema).table('outbox').select('id').where('published_at', '<', cutoff).limit(limit);
  return knex.withSchema(schema).table('outbox').whereIn('id', oldest).delete();
}

/** The bus message of a row: same id (consumers dedupe on it), original time and trace context. */
export function toPublishInput(row: OutboxRow): PublishInput {
  return {
    id: row.id,
    topic: row.topic,
    key: row.key,
    type: row.type,
    version: row.version,
    payload: row.payload,
    headers: row.headers,
    timestamp: new Date(row.created_at).toISOString(),
  };
}

/** Rows not yet published and the age (seconds) of the oldest; 0 when none. */
export async function outboxLag(knex: Knex, schema: string): Promise<{ unsent: number; oldestAgeSeconds: number }> {
  const result = await knex.raw<{ rows: Array<{ unsent: number; age: number | null }> }>(
    'SELECT count(*)::int AS unsent, extract(epoch FROM now() - min(created_at))::float8 AS age FROM ??.outbox WHERE published_at IS NULL',
    [schema],
  );
  const row = result.rows[0];
  return { unsent: row?.unsent ?? 0, oldestAgeSeconds: Math.max(0, row?.age ?? 0) };
}
