import { errors } from '@tabula/http';
import type { BaseInfo, SourceInfo, TableContext, TableInfo, ViewInfo } from '@tabula/contracts';
import type { MetaPorts } from '../ports';
import { findBase, type BaseRow } from '../repositories/base.repository';
import { findSource, type SourceRow } from '../repositories/source.repository';
import { findTable, findTableByRef, type TableRow } from '../repositories/table.repository';
import { findView } from '../repositories/view.repository';
import { listColumns } from '../repositories/column.repository';
import { presentColumn } from '../presenters/column.presenter';
import { loadViews } from './table-detail';

function baseInfoOf(base: BaseRow): BaseInfo {
  return { id: base.id, title: base.title, fk_workspace_id: null, deleted: base.deleted };
}

function sourceInfoOf(ports: MetaPorts, source: SourceRow): SourceInfo {
  const info: SourceInfo = { id: source.id, base_id: source.base_id, type: source.type, is_meta: source.is_meta };
  if (source.is_meta) info.schema = source.schema_name ?? undefined;
  else {
    const sealed = ports.sources.configOf(source);
    info.connection = sealed.connection;
    if (sealed.schema) info.schema = sealed.schema;
  }
  return info;
}

async function contextOf(ports: MetaPorts, base: BaseRow, table: TableRow): Promise<TableContext> {
  const source = await findSource(ports.db, table.source_id);
  if (!source) throw errors.notFound('ERR_TABLE_NOT_FOUND', `Table '${table.id}' not found`);
  const [columns, views] = await Promise.all([listColumns(ports.db, table.id), loadViews(ports.db, table.id)]);
  const info: TableInfo = {
    id: table.id, base_id: table.base_id, source_id: table.source_id, table_name: table.table_name, title: table.title,
    type: table.type, columns: columns.map(presentColumn), views,
  };
  return { base: baseInfoOf(base), source: sourceInfoOf(ports, source), table: info };
}

function missingBase(ref: string): never {
  throw errors.notFound('ERR_BASE_NOT_FOUND', `Base '${ref}' not found`);
}

function missingTable(ref: string): never {
  throw errors.notFound('ERR_TABLE_NOT_FOUND', `Table '${ref}' not found`);
}

/** `GET /internal/bases/:baseRef` */
export async function internalBase(ports: MetaPorts, baseRef: string): Promise<BaseInfo> {
  return baseInfoOf((await findBase(ports.db, baseRef)) ?? missingBase(baseRef));
}

/** `GET /internal/bases/:baseRef/tables/:tableRef` (ids, titles or physical names). */
export async function internalTableByRef(ports: MetaPorts, baseRef: string, tableRef: string): Promise<TableContext> {
  const base = (await findBase(ports.db, baseRef)) ?? missingBase(baseRef);
  const table = (await findTableByRef(ports.db, base.id, tableRef)) ?? missingTable(tableRef);
  return contextOf(ports, base, table);
}

/** `GET /internal/tables/:tableId` */
export async function internalTable(ports: MetaPorts, tableId: string): Promise<TableContext> {
  const table = (await findTable(ports.db, tableId)) ?? missingTable(tableId);
  const base = (await findBase(ports.db, table.base_id)) ?? missingTable(tableId);
  return contextOf(ports, base, table);
}

/** `GET /internal/views/:viewId` → the table context plus the view. */
export async function internalView(ports: MetaPorts, viewId: string): Promise<TableContext & { view: ViewInfo }> {
  const view = await findView(ports.db, viewId);
  if (!view) throw errors.notFound('ERR_VIEW_NOT_FOUND', `View '${viewId}' not found`);
  const context = await internalTable(ports, view.fk_model_id);
  return { ...context, view: context.table.views.find((v) => v.id === view.id)! };
}
