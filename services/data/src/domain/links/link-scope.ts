import type { Knex } from 'knex';
import { appError } from '@tabula/http';
import type { ColumnInfo } from '@tabula/contracts';
import type { TableHandle } from '../../context/table-handle';
import { linkPlanOf, type LinkPlan } from '../../model/link-columns';
import { parseRowId, recordNotFound, type KeyWhere } from '../../model/row-id';
import { selectByKeys, tableOf, type Db } from '../../repositories/records.repository';
import { openTable, type TableInScope } from '../table-access';
import type { DataPorts } from '../../ports';

/** A link of a table resolved for a nested route: both tables, the column and its plan. */
export interface OpenLink {
  handle: TableHandle;
  related: TableHandle;
  column: ColumnInfo;
  plan: LinkPlan;
}

/** Opens the authorized table's link column named by a nested route (404 for an unknown column) and its related table. */
export async function openLink(ports: DataPorts, scope: TableInScope, columnRef: string): Promise<OpenLink> {
  const { handle } = openTable(scope);
  const column = handle.model.byKey.get(columnRef);
  const plan = column ? linkPlanOf(column) : undefined;
  if (!column || !plan) throw appError('ERR_COLUMN_NOT_FOUND', `Link column '${columnRef}' not found in table '${handle.model.context.table.title}'`);
  const related = await ports.tables.resolve(handle.baseId, plan.related.id);
  return { handle, related, column, plan };
}

/** The key of a row id of a table (404 when it cannot name a row). */
export function keyIn(handle: TableHandle, rowId: string): KeyWhere {
  const key = parseRowId(handle.model, rowId);
  if (!key) throw recordNotFound(rowId);
  return key;
}

/** 404 unless the row exists. */
export async function requireRow(db: Db, handle: TableHandle, rowId: string): Promise<KeyWhere> {
  const key = keyIn(handle, rowId);
  const [row] = await selectByKeys(db, handle, [key], handle.model.primaryKeys);
  if (!row) throw recordNotFound(rowId);
  return key;
}

function qualified(handle: TableHandle, name: string): string {
  return handle.source.schema ? `${handle.source.schema}.${name}` : name;
}

/**
 * Restricts a query on the related table to the records linked to `rowId`
 * (or, with `exclude`, to the ones not linked to it).
 */
export function linkedScope(link: OpenLink, db: Db, rowValue: string | number, exclude: boolean): (qb: Knex.QueryBuilder) => void {
  const { plan, handle } = link;
  const pk = plan.related.pk.column_name;
  if (plan.junction) {
    const j = plan.junction;
    const sub = db.from(qualified(handle, j.name)).select(j.other).where(j.self, rowValue);
    return (qb) => { if (exclude) qb.whereNotIn(pk, sub); else qb.whereIn(pk, sub); };
  }
  if (plan.fkHere) {
    const sub = tableOf(db, handle).select(plan.fk!).where(plan.table.pk, rowValue);
    return (qb) => { if (exclude) qb.where((w) => w.whereNotIn(pk, sub.clone().whereNotNull(plan.fk!))); else qb.whereIn(pk, sub); };
  }
  return (qb) => { if (exclude) qb.where((w) => w.whereNull(plan.fk!).orWhereNot(plan.fk!, rowValue)); else qb.where(plan.fk!, rowValue); };
}

/** The id of a related record as a body names it: an id, or an object carrying its primary key (`{Id}`); else 400. */
export function refOf(item: unknown, pkTitle: string, title: string): string {
  if (typeof item === 'string' || typeof item === 'number') return String(item);
  const obj = item as Record<string, unknown> | null;
  const id = obj && typeof obj === 'object' ? (obj.Id ?? obj[pkTitle] ?? obj.id) : undefined;
  if (typeof id === 'string' || typeof id === 'number') return String(id);
  throw appError('ERR_INVALID_REQUEST_BODY', `Link field '${title}' takes record ids or {Id} objects`);
}
