import type { Knex } from 'knex';
import { INTEGRATIONS_SCHEMA } from './integration.repository';

/** A row of integrations.store. */
export interface StoreRow {
  key: string;
  value: unknown;
  created_at: Date;
  updated_at: Date;
}

const table = (db: Knex) => db.withSchema(INTEGRATIONS_SCHEMA).table('store');

/** Writes (or replaces) a record of an integration's store. */
export async function putStoreRecord(db: Knex, integrationId: string, key: string, value: unknown): Promise<void> {
  await table(db).insert({ fk_integration_id: integrationId, key, value: JSON.stringify(value) })
    .onConflict(['fk_integration_id', 'key']).merge({ value: JSON.stringify(value), updated_at: db.fn.now() });
}

/** A page of records, oldest first. */
export async function listStoreRecords(db: Knex, integrationId: string, limit: number, offset: number): Promise<StoreRow[]> {
  return (await table(db).select('key', 'value', 'created_at', 'updated_at').where({ fk_integration_id: integrationId })
    .orderBy('id').limit(limit).offset(offset)) as StoreRow[];
}

/** How many records an integration has. */
export async function countStoreRecords(db: Knex, integrationId: string): Promise<number> {
  const row = (await table(db).where({ fk_integration_id: integrationId }).count<{ count: string }[]>('* as count'))[0];
  return Number(row?.count ?? 0);
}

/** One record by key. */
export async function getStoreRecord(db: Knex, integrationId: string, key: string): Promise<StoreRow | undefined> {
  return (await table(db).select('key', 'value', 'created_at', 'updated_at').where({ fk_integration_id: integrationId, key }).first()) as StoreRow | undefined;
}

/** Sums of top-level numeric fields of every record's value (non-numbers count as 0). */
export async function sumStoreFields(db: Knex, integrationId: string, fields: string[]): Promise<Record<string, number>> {
  const selects = fields.map((f, i) => db.raw(
    `coalesce(sum(case when jsonb_typeof(value -> ?) = 'number' then (value ->> ?)::numeric else 0 end), 0) as ??`, [f, f, `f${i}`],
  ));
  const row = (await table(db).select(selects).where({ fk_integration_id: integrationId }).first()) as Record<string, string>;
  return Object.fromEntries(fields.map((f, i) => [f, Number(row[`f${i}`] ?? 0)]));
}
