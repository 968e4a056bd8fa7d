import type { Knex } from 'knex';
import { tbl } from './hooks-db';

/** A stored hook. */
export interface HookRow {
  id: string;
  fk_model_id: string;
  base_id: string;
  title: string;
  description: string | null;
  event: string;
  operation: string | string[];
  notification: { type?: string; payload?: Record<string, unknown> } & Record<string, unknown>;
  active: boolean;
  async: boolean;
  retries: number;
  retry_interval: number;
  timeout: number;
  version: 'v1' | 'v2' | 'v3';
  condition: boolean;
  trigger_field: boolean;
  trigger_fields: string[];
  secret_sealed: string;
  created_at: Date;
  updated_at: Date;
}

const JSON_COLUMNS = ['operation', 'notification', 'trigger_fields'] as const;

function encode(values: Partial<HookRow>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...values };
  for (const key of JSON_COLUMNS) if (key in out) out[key] = JSON.stringify(out[key]);
  return out;
}

/** Inserts a hook. */
export async function insertHook(db: Knex, row: Omit<HookRow, 'created_at' | 'updated_at'>): Promise<void> {
  await tbl(db, 'hooks').insert(encode(row));
}

/** Updates a hook's columns. */
export async function updateHook(db: Knex, id: string, values: Partial<HookRow>): Promise<void> {
  await tbl(db, 'hooks').where({ id }).update({ ...encode(values), updated_at: db.fn.now() });
}

/** Deletes a hook (filters, deliveries and logs cascade). */
export async function deleteHook(db: Knex, id: string): Promise<number> {
  return tbl(db, 'hooks').where({ id }).delete();
}

/** One hook. */
export async function findHook(db: Knex, id: string): Promise<HookRow | undefined> {
  return tbl(db, 'hooks').where({ id }).first();
}

/** A table's hooks, oldest first, with the total. */
export async function listHooks(db: Knex, tableId: string, limit: number, offset: number): Promise<{ rows: HookRow[]; total: number }> {
  const rows = await tbl(db, 'hooks').where({ fk_model_id: tableId }).orderBy([{ column: 'created_at' }, { column: 'id' }]).limit(limit).offset(offset);
  const [{ count }] = await tbl(db, 'hooks').where({ fk_model_id: tableId }).count({ count: '*' });
  return { rows, total: Number(count) };
}

/** Active hooks of a table for one event (operation matching happens in code). */
export async function activeHooksOf(db: Knex, tableId: string, event: string): Promise<HookRow[]> {
  return tbl(db, 'hooks').where({ fk_model_id: tableId, event, active: true }).orderBy('created_at');
}
