import { errors } from '@tabula/http';
import { isThroughLinkUidt } from '@tabula/query';
import type { BaseInfo, SourceInfo, TableContext, TableInfo, ViewInfo } from '@tabula/contracts';
import type { MetaPorts } from '../../ports';
import { findBase, type BaseRow, baseCandidates } from '../../repositories/base.repository';
import type { BaseCandidates } from '@tabula/auth';
import { findSource, type SourceRow } from '../../repositories/source.repository';
import { findTable, findTableByRef, type TableRow } from '../../repositories/table.repository';
import { findView } from '../../repositories/view.repository';
import { listColumns, listColumnsOf, type ColumnRow } from '../../repositories/column.repository';
import { isLink, linkOf } from '../columns/link-column';
import { presentColumn } from '../../presenters/column.presenter';
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
  const related = await relatedTables(ports, columns);
  return { base: baseInfoOf(base), source: sourceInfoOf(ports, source), table: info, ...(related.length ? { related } : {}) };
}

/** How many links deep the context reaches (lookups of lookups: the data service's MAX_RELATION_DEPTH), and how many tables at most. */
const RELATED_DEPTH = 5;
const MAX_RELATED = 64;

/**
 * The tables reached by link columns (related and junction tables), with
 * their columns; then the tables their links reach, and so on while a lookup
 * or rollup of the tables found so far reads a lookup, rollup or link count
 * of the next ones (up to {@link RELATED_DEPTH} links away).
 */
async function relatedTables(ports: MetaPorts, columns: ColumnRow[]): Promise<TableInfo[]> {
  const found = new Map<string, { table: TableRow; columns: ColumnRow[] }>();
  let frontier = columns;
  for (let depth = 0; depth < RELATED_DEPTH && frontier.length && found.size < MAX_RELATED; depth += 1) {
    const ids = new Set<string>();
    for (const c of frontier.filter(isLink)) {
      const link = linkOf(c);
      for (const id of [link.fk_related_model_id, link.fk_mm_model_id]) if (id && !found.has(id)) ids.add(id);
    }
    if (!ids.size) break;
    const tables = (await Promise.all([...ids].slice(0, MAX_RELATED - found.size).map((id) => findTable(ports.db, id)))).filter((t): t is TableRow => !!t);
    const all = await listColumnsOf(ports.db, tables.map((t) => t.id));
    for (const t of tables) found.set(t.id, { table: t, columns: all.filter((c) => c.fk_model_id === t.id) });
    // Further only where a lookup or rollup of a table just found reads a computed column of its related table.
    const deeper = new Set(tables.flatMap((t) => found.get(t.id)!.columns)
      .filter((c) => isThroughLinkUidt(c.uidt)).map((c) => (c.col_options as Record<string, unknown> | null)?.fk_relation_column_id));
    frontier = all.filter((c) => isLink(c) && deeper.has(c.id));
  }
  return [...found.values()].map(({ table: t, columns: cols }) => ({
    id: t.id, base_id: t.base_id, source_id: t.source_id, table_name: t.table_name, title: t.title, type: t.type,
    columns: cols.map(presentColumn), views: [],
  }));
}

function missingBase(ref: string): never {
  throw errors.notFound('ERR_BASE_NOT_FOUND', `Base '${ref}' not found`);
}

function missingTable(ref: string): never {
  throw errors.notFound('ERR_TABLE_NOT_FOUND', `Table '${ref}' not found`);
}

/** `GET /internal/bases/:baseRef/candidates`: the base with that id, else the ids of the live bases with that title. */
export async function internalBaseCandidates(ports: MetaPorts, baseRef: string): Promise<BaseCandidates> {
  return baseCandidates(ports.db, baseRef);
}

/** `GET /internal/bases/:baseId` (ids only: titles are resolved per caller). */
export async function internalBase(ports: MetaPorts, baseRef: string): Promise<BaseInfo> {
  return baseInfoOf((await findBase(ports.db, baseRef)) ?? missingBase(baseRef));
}

/** `GET /internal/bases/:baseId/tables/:tableRef` (base by id; table by id, title or physical name). */
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
