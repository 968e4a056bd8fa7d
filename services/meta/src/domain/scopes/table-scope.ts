import type { Knex } from 'knex';
import { errors, type AppError } from '@tabula/http';
import type { MetaPorts } from '../../ports';
import { findBase, type BaseRow } from '../../repositories/base.repository';
import { findSource, type SourceRow } from '../../repositories/source.repository';
import { findTable, type TableRow } from '../../repositories/table.repository';
import type { SourceHandle } from '../../ddl/dialect';

/** A table with its base and source (what every table-scoped use case works on). */
export interface TableScope {
  base: BaseRow;
  table: TableRow;
  source: SourceRow;
  handle: SourceHandle;
}

/** 404 of a table id (also of a table the caller may not see). */
export function tableNotFound(id: string): AppError {
  return errors.notFound('ERR_TABLE_NOT_FOUND', `Table '${id}' not found`);
}

/** Loads a live table of a live base; 404 when either is gone. */
export async function loadTableScope(ports: MetaPorts, tableId: string, db: Knex = ports.db): Promise<TableScope> {
  const table = await findTable(db, tableId);
  const base = table ? await findBase(db, table.base_id) : undefined;
  const source = table ? await findSource(db, table.source_id) : undefined;
  if (!table || !base || !source) throw tableNotFound(tableId);
  return { base, table, source, handle: ports.sources.handleOf(source) };
}
