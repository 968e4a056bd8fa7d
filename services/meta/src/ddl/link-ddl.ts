import type { Knex } from 'knex';
import { schemaBuilder, type SourceHandle } from './dialect';

/** A table and its primary key column, as the link DDL needs them. */
export interface KeyedTable {
  tableName: string;
  pkName: string;
  /** The metadata `dt` of the primary key (chooses the foreign key's type). */
  pkDt: string | null;
}

/** A foreign key column to add: its physical name and the id its index/constraint names derive from. */
export interface ForeignKeySpec {
  columnId: string;
  columnName: string;
  unique: boolean;
  /** ON DELETE of the parent row: SET NULL for hm/bt/oo, CASCADE for junction rows. */
  onDelete: 'SET NULL' | 'CASCADE';
}

function qualified(source: SourceHandle, tableName: string): string {
  return source.schema ? `${source.schema}.${tableName}` : tableName;
}

/** The physical type of a column referencing `parent`'s key (MySQL needs the exact type, signedness included). */
async function keyType(source: SourceHandle, parent: KeyedTable): Promise<string> {
  if (source.dialect === 'mysql2') {
    const [rows] = await source.knex.raw(
      'select column_type as t from information_schema.columns where table_schema = database() and table_name = ? and column_name = ?',
      [parent.tableName, parent.pkName],
    ) as [{ t: string }[]];
    return rows[0]?.t ?? 'int unsigned';
  }
  const dt = (parent.pkDt ?? 'integer').toLowerCase();
  if (/int|serial/.test(dt)) return dt.includes('big') ? 'bigint' : 'integer';
  if (source.dialect === 'sqlite3') return 'text';
  return dt;
}

function defineForeignKey(t: Knex.CreateTableBuilder, source: SourceHandle, parent: KeyedTable, fk: ForeignKeySpec, type: string): void {
  t.specificType(fk.columnName, type).nullable();
  if (fk.unique) t.unique([fk.columnName], { indexName: `uq_${fk.columnId}` });
  else t.index([fk.columnName], `ix_${fk.columnId}`);
  // SQLite cannot add a constraint to an existing table without rebuilding it; the index is enough there.
  if (source.dialect !== 'sqlite3') {
    t.foreign(fk.columnName, `fk_${fk.columnId}`).references(parent.pkName).inTable(qualified(source, parent.tableName)).onDelete(fk.onDelete);
  }
}

/** Adds a nullable foreign key column (index or unique index, and a constraint where the dialect allows) to `child`. */
export async function addForeignKey(source: SourceHandle, child: string, parent: KeyedTable, fk: ForeignKeySpec): Promise<void> {
  const type = await keyType(source, parent);
  await schemaBuilder(source).alterTable(child, (t) => defineForeignKey(t, source, parent, fk, type));
}

/** Drops a foreign key column with its constraint and index. */
export async function dropForeignKey(source: SourceHandle, child: string, fk: Omit<ForeignKeySpec, 'onDelete'>): Promise<void> {
  if (source.dialect !== 'sqlite3') await schemaBuilder(source).alterTable(child, (t) => t.dropForeign([fk.columnName], `fk_${fk.columnId}`));
  await schemaBuilder(source).alterTable(child, (t) => {
    if (fk.unique) t.dropUnique([fk.columnName], `uq_${fk.columnId}`);
    else t.dropIndex([fk.columnName], `ix_${fk.columnId}`);
  });
  await schemaBuilder(source).alterTable(child, (t) => t.dropColumn(fk.columnName));
}

/** Creates a junction table of two key columns (together the primary key), each referencing one side. */
export async function createJunctionTable(
  source: SourceHandle, name: string, sides: [{ parent: KeyedTable; fk: ForeignKeySpec }, { parent: KeyedTable; fk: ForeignKeySpec }],
): Promise<void> {
  const types = [await keyType(source, sides[0].parent), await keyType(source, sides[1].parent)];
  await schemaBuilder(source).createTable(name, (t) => {
    sides.forEach((side, i) => {
      t.specificType(side.fk.columnName, types[i]).notNullable();
      // In CREATE TABLE every dialect (SQLite too) takes the constraint.
      t.foreign(side.fk.columnName, `fk_${side.fk.columnId}`).references(side.parent.pkName)
        .inTable(qualified(source, side.parent.tableName)).onDelete('CASCADE');
    });
    t.primary(sides.map((s) => s.fk.columnName), `pk_${sides[0].fk.columnId}`);
    t.index([sides[1].fk.columnName], `ix_${sides[1].fk.columnId}`);
  });
}
