import type { Knex } from 'knex';
import { BaseModel, type RowOf } from '@tabula/db';
import { sealedColumn } from '@tabula/runtime';
import { HOOKS_SCHEMA } from './hooks-db';

/** A stored hook (`hooks.hooks`). */
export class HookModel extends BaseModel {
  static override tableName = `${HOOKS_SCHEMA}.hooks`;
  static override jsonColumns = ['operation', 'notification', 'trigger_fields'];

  declare id: string;
  declare fk_model_id: string;
  declare base_id: string;
  declare title: string;
  declare description: string | null;
  declare event: string;
  declare operation: string | string[];
  declare notification: { type?: string; payload?: Record<string, unknown> } & Record<string, unknown>;
  declare active: boolean;
  declare async: boolean;
  declare retries: number;
  declare retry_interval: number;
  declare timeout: number;
  declare version: 'v1' | 'v2' | 'v3';
  declare condition: boolean;
  declare trigger_field: boolean;
  declare trigger_fields: string[];
  declare secret_sealed: string;
  declare created_at: Date;
  declare updated_at: Date;
}

/** A stored hook. */
export type HookRow = RowOf<HookModel>;

/** Inserts a hook. */
export async function insertHook(db: Knex, row: Omit<HookRow, 'created_at' | 'updated_at'>): Promise<void> {
  await HookModel.query(db).insert(row);
}

/** Updates a hook's columns. */
export async function updateHook(db: Knex, id: string, values: Partial<HookRow>): Promise<void> {
  await HookModel.query(db).where({ id }).patch({ ...values, updated_at: db.fn.now() as unknown as Date });
}

/** Deletes a hook (filters, deliveries and logs cascade). */
export async function deleteHook(db: Knex, id: string): Promise<number> {
  return HookModel.query(db).where({ id }).delete();
}

/** One hook. */
export async function findHook(db: Knex, id: string): Promise<HookRow | undefined> {
  return HookModel.query(db).where({ id }).first();
}

/** A table's hooks, oldest first, with the total. */
export async function listHooks(db: Knex, tableId: string, limit: number, offset: number): Promise<{ rows: HookRow[]; total: number }> {
  const rows = await HookModel.query(db).where({ fk_model_id: tableId }).orderBy([{ column: 'created_at' }, { column: 'id' }]).limit(limit).offset(offset);
  const total = await HookModel.query(db).where({ fk_model_id: tableId }).resultSize();
  return { rows, total };
}

/** Active hooks of a table for one event (operation matching happens in code). */
export async function activeHooksOf(db: Knex, tableId: string, event: string): Promise<HookRow[]> {
  return HookModel.query(db).where({ fk_model_id: tableId, event, active: true }).orderBy('created_at');
}

/** Every active hook of a table (all events), oldest first (the hook cache's load). */
export async function activeHooksOfTable(db: Knex, tableId: string): Promise<HookRow[]> {
  return HookModel.query(db).where({ fk_model_id: tableId, active: true }).orderBy([{ column: 'created_at' }, { column: 'id' }]);
}

/** The hooks of some tables, oldest first. */
export async function hooksOfTables(db: Knex, tableIds: string[]): Promise<HookRow[]> {
  return HookModel.query(db).whereIn('fk_model_id', tableIds).orderBy([{ column: 'created_at' }, { column: 'id' }]);
}

/** Deletes every hook of some tables (filters, deliveries and logs cascade); answers how many. */
export async function deleteHooksOfTables(db: Knex, tableIds: string[]): Promise<number> {
  return HookModel.query(db).whereIn('fk_model_id', tableIds).delete();
}

/** Hook signing secrets, as the start-up re-seal reads and replaces them. */
export const sealedHookSecrets = sealedColumn(HookModel.tableName, 'secret_sealed');
