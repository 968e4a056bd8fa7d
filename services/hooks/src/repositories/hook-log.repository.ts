import type { Knex } from 'knex';
import { BaseModel, type RowOf } from '@tabula/db';
import { HOOKS_SCHEMA } from './hooks-db';

/** One logged attempt (`hooks.hook_logs`; compat-notes "Hooks": Logs). */
export class HookLogModel extends BaseModel {
  static override tableName = `${HOOKS_SCHEMA}.hook_logs`;
  /** A missing payload or response is stored as the JSON null. */
  static override jsonValueColumns = ['payload', 'response'];

  declare id: string;
  declare fk_hook_id: string;
  declare base_id: string | null;
  declare fk_model_id: string | null;
  declare delivery_id: string | null;
  declare attempt: number;
  declare type: string;
  declare event: string;
  declare operation: string;
  declare payload: unknown;
  declare response: unknown;
  declare error_message: string | null;
  declare execution_time: number;
  declare triggered_by: string | null;
  declare test_call: boolean;
  declare created_at?: Date;
  declare updated_at?: Date;
}

/** One logged attempt. */
export type HookLogRow = RowOf<HookLogModel>;

/** Inserts a log row. */
export async function insertHookLog(db: Knex, row: Omit<HookLogRow, 'created_at' | 'updated_at'>): Promise<void> {
  await HookLogModel.query(db).insert({ ...row, payload: row.payload ?? null, response: row.response ?? null });
}

/** A hook's logs, newest first, with the total. */
export async function listHookLogs(db: Knex, hookId: string, limit: number, offset: number): Promise<{ rows: HookLogRow[]; total: number }> {
  const rows = await HookLogModel.query(db).where({ fk_hook_id: hookId })
    .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'attempt', order: 'desc' }, { column: 'id', order: 'desc' }])
    .limit(limit).offset(offset);
  const total = await HookLogModel.query(db).where({ fk_hook_id: hookId }).resultSize();
  return { rows, total };
}

/** Deletes logs older than the retention; returns how many. */
export async function pruneHookLogs(db: Knex, olderThan: Date): Promise<number> {
  return HookLogModel.query(db).where('created_at', '<', olderThan).delete();
}
