import type { Knex } from 'knex';
import { BaseModel } from '@tabula/db';
import { COMMENTS_SCHEMA } from '../ports';

/** A table or base whose comments are (being) purged. */
export interface PurgeScope {
  kind: 'table' | 'base';
  id: string;
}

/** A tombstone of a purged table or base (`comments.purged_scopes`). */
export class PurgedScopeModel extends BaseModel {
  static override tableName = `${COMMENTS_SCHEMA}.purged_scopes`;
  static override idColumn = 'scope_id';

  declare scope_id: string;
  declare kind: PurgeScope['kind'];
}

/**
 * Serializes comment creation against a purge of the same table or base:
 * creators hold shared transaction locks on both keys, a purge an exclusive
 * one. With the tombstone written by the purge, a comment can never survive
 * the purge of its table (no orphan from a create racing the event).
 */
export async function lockScope(trx: Knex.Transaction, id: string, mode: 'shared' | 'exclusive'): Promise<void> {
  const fn = mode === 'shared' ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock';
  await trx.raw(`SELECT ${fn}(hashtext('comments.scope'), hashtext(?))`, [id]);
}

/** Writes the tombstone of a purged scope (idempotent). */
export async function markPurged(trx: Knex.Transaction, scope: PurgeScope): Promise<void> {
  await PurgedScopeModel.query(trx).insert({ scope_id: scope.id, kind: scope.kind }).onConflict('scope_id').ignore();
}

/** True when any of the ids (table id, base id) was purged. */
export async function isPurged(db: Knex, ids: string[]): Promise<boolean> {
  const row = await PurgedScopeModel.query(db).select('scope_id').whereIn('scope_id', ids).first();
  return row !== undefined;
}
