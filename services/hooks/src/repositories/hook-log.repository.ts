import type { Knex } from 'knex';
import { tbl } from './hooks-db';

/** One logged attempt (compat-notes "Hooks": Logs). */
export interface HookLogRow {
  id: string;
  fk_hook_id: string;
  base_id: string | null;
  fk_model_id: string | null;
  delivery_id: string | null;
  attempt: number;
  type: string;
  event: string;
  operation: string;
  payload: unknown;
  response: unknown;
  error_message: string | null;
  execution_time: number;
  triggered_by: string | null;
  test_call: boolean;
  created_at?: Date;
  updated_at?: Date;
}

/** Inserts a log row. */
export async function insertHookLog(db: Knex, row: Omit<HookLogRow, 'created_at' | 'updated_at'>): Promise<void> {
  await tbl(db, 'hook_logs').insert({ ...row, payload: JSON.stringify(row.payload ?? null), response: JSON.stringify(row.response ?? null) });
}

/** A hook's logs, newest first, with the total. */
export async function listHookLogs(db: Knex, hookId: string, limit: number, offset: number): Promise<{ rows: HookLogRow[]; total: number }> {
  const rows = await tbl(db, 'hook_logs').where({ fk_hook_id: hookId })
    .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'attempt', order: 'desc' }, { column: 'id', order: 'desc' }])
    .limit(limit).offset(offset);
  const [{ count }] = await tbl(db, 'hook_logs').where({ fk_hook_id: hookId }).count({ count: '*' });
  return { rows, total: Number(count) };
}

/** Deletes logs older than the retention; returns how many. */
export async function pruneHookLogs(db: Knex, olderThan: Date): Promise<number> {
  return tbl(db, 'hook_logs').where('created_at', '<', olderThan).delete();
}
