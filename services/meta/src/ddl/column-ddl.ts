import type { Knex } from 'knex';
import type { ColumnRow } from '../repositories/column.repository';
import { physicalDefault } from '../domain/rules/value-rules';
import { schemaBuilder, type SourceHandle } from './dialect';
import { isPhysical, physicalTypeOf } from './uidt';

/** Index name of a column's UNIQUE constraint: from its id, so renames never orphan it. */
export function uniqueIndexName(columnId: string): string {
  return `uq_${columnId}`;
}

/**
 * Adds one column's definition to a create/alter table builder: type, default
 * (client cdf, else the type's implicit one), nullability. Returns the builder
 * so callers can `.alter()` it.
 */
export function defineColumn(t: Knex.CreateTableBuilder, source: SourceHandle, c: ColumnRow): Knex.ColumnBuilder | undefined {
  const type = physicalTypeOf(source.dialect, c.uidt);
  if (!type || !c.column_name) return undefined;
  const b = type.build(t, c.column_name, source.knex);
  if (c.uidt === 'ID') return b;
  const def = physicalDefault(c.uidt, c.cdf) ?? type.implicitDefault?.(source.knex);
  if (def !== undefined) b.defaultTo(def as Knex.Value);
  if (c.rqd) b.notNullable();
  else b.nullable();
  return b;
}

/** ALTER TABLE … ADD COLUMN (plus its UNIQUE index). */
export async function addPhysicalColumn(source: SourceHandle, tableName: string, c: ColumnRow): Promise<void> {
  if (!isPhysical(c.uidt)) return;
  await schemaBuilder(source).alterTable(tableName, (t) => {
    defineColumn(t, source, c);
    if (c.unique) t.unique([c.column_name!], { indexName: uniqueIndexName(c.id) });
  });
}

/** ALTER TABLE … DROP COLUMN (its data goes with it). */
export async function dropPhysicalColumn(source: SourceHandle, tableName: string, c: ColumnRow): Promise<void> {
  if (!isPhysical(c.uidt) || !c.column_name) return;
  if (c.unique) await dropUniqueIndex(source, tableName, c);
  await schemaBuilder(source).alterTable(tableName, (t) => t.dropColumn(c.column_name!));
}

async function dropUniqueIndex(source: SourceHandle, tableName: string, c: ColumnRow): Promise<void> {
  await schemaBuilder(source).alterTable(tableName, (t) => t.dropUnique([c.column_name!], uniqueIndexName(c.id)));
}

/**
 * Applies a changed column definition: rename, then type/default/nullability
 * (knex emits `USING col::type` on PostgreSQL and rebuilds the table on
 * SQLite), then the UNIQUE index.
 */
export async function alterPhysicalColumn(source: SourceHandle, tableName: string, before: ColumnRow, after: ColumnRow): Promise<void> {
  const wasPhysical = isPhysical(before.uidt);
  const isNowPhysical = isPhysical(after.uidt);
  if (wasPhysical && !isNowPhysical) return dropPhysicalColumn(source, tableName, before);
  if (!wasPhysical && isNowPhysical) return addPhysicalColumn(source, tableName, after);
  if (!isNowPhysical) return;
  if (before.unique && !after.unique) await dropUniqueIndex(source, tableName, before);
  if (before.column_name !== after.column_name) {
    await schemaBuilder(source).alterTable(tableName, (t) => t.renameColumn(before.column_name!, after.column_name!));
  }
  const typeChanged = before.uidt !== after.uidt || before.dt !== after.dt;
  if (typeChanged || before.rqd !== after.rqd || before.cdf !== after.cdf) {
    await schemaBuilder(source).alterTable(tableName, (t) => {
      defineColumn(t, source, after)?.alter({ alterNullable: true, alterType: typeChanged });
    });
  }
  if (!before.unique && after.unique) {
    await schemaBuilder(source).alterTable(tableName, (t) => t.unique([after.column_name!], { indexName: uniqueIndexName(after.id) }));
  }
}
