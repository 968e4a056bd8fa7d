import type { Knex } from 'knex';
import { BaseModel, type RowOf } from '@tabula/db';
import { INTEGRATIONS_SCHEMA } from './integration.repository';

/** A record of an integration's key-value store (integrations.store). */
export class StoreModel extends BaseModel {
  static override tableName = `${INTEGRATIONS_SCHEMA}.store`;
  static override jsonValueColumns = ['value'];

  declare id: number;
  declare fk_integration_id: string;
  declare key: string;
  declare value: unknown;
  declare created_at: Date;
  declare updated_at: Date;
}

/** A record as the store answers it. */
export type StoreRow = Pick<RowOf<StoreModel>, 'key' | 'value' | 'created_at' | 'updated_at'>;

/** Writes (or replaces) a record of an integration's store. */
export async function putStoreRecord(db: Knex, integrationId: string, key: string, value: unknown): Promise<void> {
  await StoreModel.query(db).insert({ fk_integration_id: integrationId, key, value })
    .onConflict(['fk_integration_id', 'key']).merge({ value: JSON.stringify(value), updated_at: db.fn.now() });
}

/** A page of records, oldest first. */
export async function listStoreRecords(db: Knex, integrationId: string, limit: number, offset: number): Promise<StoreRow[]> {
  return StoreModel.query(db).select('key', 'value', 'created_at', 'updated_at').where({ fk_integration_id: integrationId })
    .orderBy('id').limit(limit).offset(offset);
}

/** How many records an integration has. */
export async function countStoreRecords(db: Knex, integrationId: string): Promise<number> {
  return StoreModel.query(db).where({ fk_integration_id: integrationId }).resultSize();
}

/** One record by key. */
export async function getStoreRecord(db: Knex, integrationId: string, key: string): Promise<StoreRow | undefined> {
  return StoreModel.query(db).select('key', 'value', 'created_at', 'updated_at').where({ fk_integration_id: integrationId, key }).first();
}

/** Sums of top-level numeric fields of every record's value (non-numbers count as 0). */
export async function sumStoreFields(db: Knex, integrationId: string, fields: string[]): Promise<Record<string, number>> {
  const selects = fields.map((f, i) => db.raw(
    `coalesce(sum(case when jsonb_typeof(value -> ?) = 'number' then (value ->> ?)::numeric else 0 end), 0) as ??`, [f, f, `f${i}`],
  ));
  const row = (await StoreModel.query(db).select(selects).where({ fk_integration_id: integrationId }).first()) as unknown as Record<string, string>;
  return Object.fromEntries(fields.map((f, i) => [f, Number(row[`f${i}`] ?? 0)]));
}
