import type { SourceHandle } from './dialect';

/** One physical index of a user table, as the database reports it. */
export interface PhysicalIndex {
  name: string;
  unique: boolean;
  primary: boolean;
  /** Column names in index order (an expression index has none it can name: ''). */
  columns: string[];
}

/** The index to build: its name, the table, its columns in order, uniqueness; `prefix` marks MySQL TEXT columns (key prefix). */
export interface IndexSpec {
  name: string;
  tableName: string;
  columns: { name: string; prefix?: number }[];
  unique: boolean;
}

/** Index made on request: `ixm_<id>`; made for a view sort/filter column: `ixa_<columnId>` (one per column, so idempotent). */
export const MANUAL_PREFIX = 'ixm_';
export const AUTO_PREFIX = 'ixa_';

function quote(source: SourceHandle, identifier: string): string {
  return source.dialect === 'mysql2' ? `\`${identifier.replace(/`/g, '``')}\`` : `"${identifier.replace(/"/g, '""')}"`;
}

function qualifiedTable(source: SourceHandle, tableName: string): string {
  return source.dialect === 'pg' && source.schema ? `${quote(source, source.schema)}.${quote(source, tableName)}` : quote(source, tableName);
}

async function pgIndexes(source: SourceHandle, tableName: string): Promise<PhysicalIndex[]> {
  const { rows } = await source.knex.raw(`
    select i.relname as name, ix.indisunique as "unique", ix.indisprimary as "primary",
      array(select coalesce(a.attname::text, '') from unnest(ix.indkey::int2[]) with ordinality k(attnum, n)
        left join pg_attribute a on a.attrelid = t.oid and a.attnum = k.attnum and k.attnum > 0 order by k.n) as columns
    from pg_index ix join pg_class t on t.oid = ix.indrelid join pg_class i on i.oid = ix.indexrelid
      join pg_namespace ns on ns.oid = t.relnamespace
    where t.relname = ? and ns.nspname = coalesce(?::text, current_schema()) and ix.indisvalid
    order by i.relname`, [tableName, source.schema ?? null]) as { rows: PhysicalIndex[] };
  return rows;
}

async function mysqlIndexes(source: SourceHandle, tableName: string): Promise<PhysicalIndex[]> {
  const [rows] = await source.knex.raw(`
    select index_name as name, non_unique as nonUnique, column_name as col from information_schema.statistics
    where table_schema = database() and table_name = ? order by index_name, seq_in_index`, [tableName]) as [{ name: string; nonUnique: number; col: string | null }[]];
  const byName = new Map<string, PhysicalIndex>();
  for (const r of rows) {
    const index = byName.get(r.name) ?? { name: r.name, unique: Number(r.nonUnique) === 0, primary: r.name === 'PRIMARY', columns: [] };
    index.columns.push(r.col ?? '');
    byName.set(r.name, index);
  }
  return [...byName.values()];
}

async function sqliteIndexes(source: SourceHandle, tableName: string): Promise<PhysicalIndex[]> {
  const list = await source.knex.raw('select name, "unique" as u, origin from pragma_index_list(?)', [tableName]) as { name: string; u: number; origin: string }[];
  const out: PhysicalIndex[] = [];
  for (const index of list) {
    const cols = await source.knex.raw('select name from pragma_index_info(?) order by seqno', [index.name]) as { name: string | null }[];
    out.push({ name: index.name, unique: Number(index.u) === 1, primary: index.origin === 'pk', columns: cols.map((c) => c.name ?? '') });
  }
  // An INTEGER PRIMARY KEY is the rowid: no index row, but it is one.
  const pk = await source.knex.raw('select name from pragma_table_info(?) where pk > 0 order by pk', [tableName]) as { name: string }[];
  if (!out.some((i) => i.primary) && pk.length) out.unshift({ name: 'PRIMARY', unique: true, primary: true, columns: pk.map((c) => c.name) });
  return out;
}

/** The valid indexes of a user table (PostgreSQL: invalid leftovers of a failed concurrent build are not listed). */
export async function listPhysicalIndexes(source: SourceHandle, tableName: string): Promise<PhysicalIndex[]> {
  if (source.dialect === 'pg') return pgIndexes(source, tableName);
  if (source.dialect === 'mysql2') return mysqlIndexes(source, tableName);
  return sqliteIndexes(source, tableName);
}

/** True when an index of that name exists on PostgreSQL but is not valid (a concurrent build that failed). */
async function pgInvalidIndex(source: SourceHandle, name: string): Promise<boolean> {
  const { rows } = await source.knex.raw(`
    select 1 from pg_index ix join pg_class i on i.oid = ix.indexrelid join pg_namespace ns on ns.oid = i.relnamespace
    where i.relname = ? and ns.nspname = coalesce(?::text, current_schema()) and not ix.indisvalid`, [name, source.schema ?? null]) as { rows: unknown[] };
  return rows.length > 0;
}

async function dropPgIndexConcurrently(source: SourceHandle, name: string): Promise<void> {
  await source.knex.raw(`drop index concurrently if exists ${qualifiedTable(source, name)}`);
}

function columnList(source: SourceHandle, spec: IndexSpec): string {
  return spec.columns.map((c) => (c.prefix && source.dialect === 'mysql2' ? `${quote(source, c.name)}(${c.prefix})` : quote(source, c.name))).join(', ');
}

/**
 * Builds an index. PostgreSQL: `CREATE INDEX CONCURRENTLY` on the pool (never
 * inside a transaction: writers are not blocked while it builds); a build that
 * fails leaves an INVALID index behind, which is dropped (also before a retry
 * of the same name), and the error is rethrown. MySQL/MariaDB build online
 * (InnoDB in-place); SQLite locks the file for the build. Every identifier is
 * quoted, names come from metadata.
 */
export async function createPhysicalIndex(source: SourceHandle, spec: IndexSpec): Promise<void> {
  const unique = spec.unique ? 'unique ' : '';
  const target = `${qualifiedTable(source, spec.tableName)} (${columnList(source, spec)})`;
  if (source.dialect === 'pg') {
    if (await pgInvalidIndex(source, spec.name)) await dropPgIndexConcurrently(source, spec.name);
    try {
      await source.knex.raw(`create ${unique}index concurrently if not exists ${quote(source, spec.name)} on ${target}`);
    } catch (err) {
      if (await pgInvalidIndex(source, spec.name).catch(() => false)) await dropPgIndexConcurrently(source, spec.name).catch(() => undefined);
      throw err;
    }
    return;
  }
  if (source.dialect === 'mysql2') {
    // MySQL has no CREATE INDEX IF NOT EXISTS (MariaDB has): look first.
    if ((await mysqlIndexes(source, spec.tableName)).some((i) => i.name === spec.name)) return;
    await source.knex.raw(`create ${unique}index ${quote(source, spec.name)} on ${target}`);
    return;
  }
  await source.knex.raw(`create ${unique}index if not exists ${quote(source, spec.name)} on ${target}`);
}

/** Drops an index (CONCURRENTLY on PostgreSQL). */
export async function dropPhysicalIndex(source: SourceHandle, tableName: string, name: string): Promise<void> {
  if (source.dialect === 'pg') return dropPgIndexConcurrently(source, name);
  if (source.dialect === 'mysql2') {
    await source.knex.raw(`drop index ${quote(source, name)} on ${quote(source, tableName)}`);
    return;
  }
  await source.knex.raw(`drop index if exists ${quote(source, name)}`);
}
