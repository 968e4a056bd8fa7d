import type { Knex } from 'knex';

/**
 * Logs the transaction that inserted each row of `tables` (`public.tx_log`, by a trigger): a row's `xmin` changes
 * when it is updated later (the relay marking an outbox row sent, a renumbered `nc_order`), its logged id does not.
 */
export async function installTxLog(db: Knex, tables: string[]): Promise<void> {
  await db.raw('create table if not exists public.tx_log (tbl text not null, id text not null, tx bigint not null default txid_current())');
  await db.raw(`create or replace function public.tx_log_insert() returns trigger language plpgsql as $$
    begin insert into public.tx_log (tbl, id) values (TG_TABLE_SCHEMA || '.' || TG_TABLE_NAME, NEW.id::text); return null; end $$`);
  for (const table of tables) await db.raw(`create trigger tx_log after insert on ${table} for each row execute function public.tx_log_insert()`);
}

/** The transactions that inserted the rows `ids` of `table` (schema-qualified), in the order of `ids`. */
export async function insertedBy(db: Knex, table: string, ids: unknown[]): Promise<string[]> {
  const rows = (await db('public.tx_log').where({ tbl: table }).whereIn('id', ids.map(String)).select('id', db.raw('tx::text AS tx'))) as { id: string; tx: string }[];
  return ids.map((id) => rows.find((r) => r.id === String(id))?.tx ?? 'not logged');
}
