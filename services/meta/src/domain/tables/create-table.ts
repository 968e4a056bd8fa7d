import { withOutbox } from '@tabula/events';
import { z } from 'zod';
import { errors } from '@tabula/http';
import type { MetaPorts } from '../../ports';
import { newId } from '@tabula/db';
import { findSource, listSources } from '../../repositories/source.repository';
import { findTable, listTables, nextTableOrder } from '../../repositories/table.repository';
import type { ColumnRow } from '../../repositories/column.repository';
import type { Dialect } from '../../ddl/dialect';
import { createPhysicalTable, dropPhysicalTable, physicalTableExists } from '../../ddl/table-ddl';
import { systemColumnMeta, SYSTEM_COLUMN_NAMES } from '../../ddl/system-columns';
import type { BaseInScope } from '../scopes/meta-scopes';
import { columnFieldsSchema } from '../columns/column-input';
import { buildColumnDraft } from '../columns/column-draft';
import { tableNameOf } from '../rules/name-rules';
import { persistTable } from './persist-table';
import { tableDetail } from './table-detail';
import { createTableSchema } from '@tabula/contracts';

function isSystemRequest(c: Record<string, unknown>): boolean {
  return c.uidt === 'ID' || c.pk === true || (SYSTEM_COLUMN_NAMES as readonly string[]).includes(String(c.column_name ?? ''));
}

/** Metadata rows of the system columns and the requested ones. */
function draftColumns(input: z.infer<typeof createTableSchema>, tableId: string, baseId: string, dialect: Dialect): ColumnRow[] {
  const rows: ColumnRow[] = [];
  const idTitle = input.columns.find((c) => c.uidt === 'ID' && typeof c.title === 'string')?.title as string | undefined;
  for (const s of systemColumnMeta(dialect)) {
    rows.push({
      id: newId('c'), fk_model_id: tableId, base_id: baseId, ...s, title: s.uidt === 'ID' ? idTitle ?? s.title : s.title,
      dtxp: null, dtxs: null, pv: false, unique: false, au: false, cdf: null, meta: null, order: rows.length + 1,
      description: null, col_options: null,
    });
  }
  for (const raw of input.columns.filter((c) => !isSystemRequest(c))) {
    const fields = columnFieldsSchema.parse(raw);
    rows.push(buildColumnDraft(fields, { tableId, baseId, dialect, existing: rows, order: rows.length + 1 }));
  }
  return rows;
}

/** Creates a table: DDL on the source, then metadata + events in one transaction. */
export async function createTable(ports: MetaPorts, scope: BaseInScope, input: z.infer<typeof createTableSchema>) {
  const { value: base, principal } = scope;
  const sources = await listSources(ports.db, base.id);
  const source = input.source_id ? await findSource(ports.db, input.source_id) : sources[0];
  if (!source || source.base_id !== base.id) throw errors.notFound('ERR_SOURCE_NOT_FOUND', `Source '${input.source_id}' not found`);
  const tableName = tableNameOf(input.table_name, input.title);
  const existing = await listTables(ports.db, base.id);
  if (existing.some((t) => t.title.toLowerCase() === input.title.toLowerCase())) throw errors.badRequest(`Duplicate table title '${input.title}'`, { duplicateAlias: { type: 'table', alias: input.title } });
  const handle = ports.sources.handleOf(source);
  if (existing.some((t) => t.source_id === source.id && t.table_name.toLowerCase() === tableName.toLowerCase()) || await physicalTableExists(handle, tableName)) {
    throw errors.badRequest(`Duplicate table name '${tableName}'`);
  }
  const id = newId('m');
  const columns = draftColumns(input, id, base.id, handle.dialect);
  await createPhysicalTable(handle, id, tableName, columns);
  try {
    await withOutbox(ports.db, ports.relay, async (trx) => persistTable(trx, {
      id, base_id: base.id, source_id: source.id, table_name: tableName, title: input.title, type: 'table',
      meta: input.meta ?? null, description: input.description ?? null, order: await nextTableOrder(trx, base.id), deleted: false,
    }, columns, principal));
  } catch (err) {
    await dropPhysicalTable(handle, tableName).catch(() => undefined);
    throw err;
  }
  return tableDetail(ports.db, (await findTable(ports.db, id))!);
}
