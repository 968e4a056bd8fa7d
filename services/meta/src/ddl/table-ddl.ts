import type { ColumnRow } from '../repositories/column.repository';
import { schemaBuilder, type SourceHandle } from './dialect';
import { defineColumn, uniqueIndexName } from './column-ddl';
import { defineSystemColumns, SYSTEM_COLUMN_NAMES } from './system-columns';
import { isPhysical } from './uidt';

/** CREATE TABLE with the system columns, the nc_order index and the user's columns. */
export async function createPhysicalTable(source: SourceHandle, tableId: string, tableName: string, columns: ColumnRow[]): Promise<void> {
  const system = new Set<string>(SYSTEM_COLUMN_NAMES);
  await schemaBuilder(source).createTable(tableName, (t) => {
    defineSystemColumns(t, source, tableId);
    for (const c of columns) {
      if (!isPhysical(c.uidt) || system.has(c.column_name ?? '')) continue;
      defineColumn(t, source, c);
      if (c.unique) t.unique([c.column_name!], { indexName: uniqueIndexName(c.id) });
    }
  });
}

/** True when the physical table exists. */
export async function physicalTableExists(source: SourceHandle, tableName: string): Promise<boolean> {
  return schemaBuilder(source).hasTable(tableName);
}

/** DROP TABLE IF EXISTS. */
export async function dropPhysicalTable(source: SourceHandle, tableName: string): Promise<void> {
  await schemaBuilder(source).dropTableIfExists(tableName);
}

/** ALTER TABLE … RENAME TO. */
export async function renamePhysicalTable(source: SourceHandle, from: string, to: string): Promise<void> {
  await schemaBuilder(source).renameTable(from, to);
}

/** Creates the schema of a default source (one per base). */
export async function createSourceSchema(source: SourceHandle): Promise<void> {
  if (source.schema) await source.knex.schema.createSchemaIfNotExists(source.schema);
}
