import { Model, type ModelObject } from 'objection';

/**
 * The base of every objection model of a service's own metadata tables
 * (README "Where things are": repositories). Models are never bound globally:
 * a repository runs `XModel.query(db)` with the knex it is handed (the pool,
 * or the transaction of a unit of work / outbox write), so a model query joins
 * whatever transaction its caller is in. Dynamic user tables stay on knex
 * through libs/query.
 *
 * - `tableName` is schema-qualified (`'hooks.hooks'`): knex quotes it as
 *   `"hooks"."hooks"`.
 * - Column names are the database's (snake_case): no name mappers.
 * - `jsonColumns` are written with `JSON.stringify` whatever the value (a
 *   string or number too, so jsonb keeps scalars as JSON); `null` stays SQL
 *   NULL. `jsonValueColumns` are the same except that `null` is written as the
 *   JSON `null` (NOT NULL columns holding any JSON value). Reading leaves them
 *   as the driver answers (pg parses json/jsonb itself, and a JSON string must
 *   stay a string).
 * - `first()` adds `LIMIT 1`, as knex's does.
 */
export class BaseModel extends Model {
  /** Columns stored as json/jsonb; `null` is SQL NULL. */
  static jsonColumns: readonly string[] = [];

  /** Columns stored as json/jsonb; `null` is the JSON null. */
  static jsonValueColumns: readonly string[] = [];

  static override useLimitInFirst = true;

  override $formatDatabaseJson(json: Record<string, unknown>): Record<string, unknown> {
    const out = super.$formatDatabaseJson(json) as Record<string, unknown>;
    const model = this.constructor as typeof BaseModel;
    for (const column of model.jsonColumns) {
      const value = out[column];
      if (value !== undefined && value !== null && !isSqlExpression(value)) out[column] = JSON.stringify(value);
    }
    for (const column of model.jsonValueColumns) {
      const value = out[column];
      if (value !== undefined && !isSqlExpression(value)) out[column] = JSON.stringify(value);
    }
    return out;
  }
}

/** A knex or objection raw expression (`db.fn.now()`, `raw(...)`): passed through, never stringified. */
function isSqlExpression(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  const v = value as { isRawInstance?: unknown; toKnexRaw?: unknown; constructor?: { name?: string } };
  return v.isRawInstance === true || typeof v.toKnexRaw === 'function' || v.constructor?.name === 'Raw';
}

/** The plain row type of a model: its data properties, without objection's methods. */
export type RowOf<M extends Model> = ModelObject<M>;
