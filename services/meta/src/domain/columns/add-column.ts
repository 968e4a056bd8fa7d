import type { Knex } from 'knex';
import type { Principal } from '@tabula/auth';
import type { MetaPorts } from '../../ports';
import { inSourceAndMetaTransaction } from '../../sources/source-transaction';
import { clearPrimaryValue, findColumn, insertColumns, listColumns, type ColumnRow } from '../../repositories/column.repository';
import type { TableRow } from '../../repositories/table.repository';
import { insertViewColumns, viewIdsOf } from '../../repositories/view.repository';
import { enqueueColumnEvent } from '../../events/meta-event.producer';
import { addPhysicalColumn } from '../../ddl/column-ddl';
import type { SourceHandle } from '../../ddl/dialect';
import { presentColumn } from '../../presenters/column.presenter';
import { newId } from '@tabula/db';
import type { TableInScope } from '../scopes/meta-scopes';
import type { MoreScopes } from '../scopes/more-scopes';
import type { ColumnFields } from './column-input';
import { buildColumnDraft } from './column-draft';
import { isLinkUidt, isThroughLinkUidt } from '@tabula/query';
import { addLinkColumnIn } from './add-link-column';
import { addRelationColumnIn } from './add-relation-column';
import { probeFormula } from './formula-probe';

/** Adds one column inside the caller's transactions (shared with bulk). */
export async function addColumnIn(ddl: SourceHandle, trx: Knex, table: TableRow, fields: ColumnFields, principal: Principal): Promise<ColumnRow> {
  if (isLinkUidt(fields.uidt)) return addLinkColumnIn(ddl, trx, table, fields, principal);
  if (isThroughLinkUidt(fields.uidt)) return addRelationColumnIn(trx, table, fields, principal);
  const existing = await listColumns(trx, table.id);
  const draft = buildColumnDraft(fields, {
    tableId: table.id, baseId: table.base_id, dialect: ddl.dialect, existing,
    order: Math.max(0, ...existing.map((c) => Number(c.order))) + 1,
  });
  if (draft.uidt === 'Formula') await probeFormula(ddl, table, draft, existing);
  await addPhysicalColumn(ddl, table.table_name, draft);
  if (draft.pv) await clearPrimaryValue(trx, table.id);
  await insertColumns(trx, [draft]);
  const viewIds = await viewIdsOf(trx, table.id);
  await insertViewColumns(trx, viewIds.map((v) => ({ id: newId('nc'), fk_view_id: v, fk_column_id: draft.id, show: true, order: draft.order })));
  await enqueueColumnEvent(trx, 'created', draft, principal);
  return draft;
}

/**
 * A link's related table must be visible to the caller before anything is said
 * about it: a table of a base the caller has no role in (another tenant's)
 * answers exactly like a missing table, never "links across bases" (which
 * would tell that the id exists).
 */
export async function assertLinkTargetVisible(more: MoreScopes, fields: Record<string, unknown>): Promise<void> {
  if (!isLinkUidt(String(fields.uidt))) return;
  const childId = fields.childId ?? (fields.colOptions as Record<string, unknown> | undefined)?.fk_related_model_id;
  if (typeof childId !== 'string' || !childId) return;
  await more.visible('table', childId);
}

/** Adds a column (DDL + metadata + view columns + event); returns the created column (spec). */
export async function addColumn(ports: MetaPorts, scope: TableInScope, more: MoreScopes, fields: ColumnFields) {
  const { value: { table, handle }, principal } = scope;
  await assertLinkTargetVisible(more, fields as Record<string, unknown>);
  const draft = await inSourceAndMetaTransaction(ports, handle, (ddl, trx) => addColumnIn(ddl, trx, table, fields, principal));
  return presentColumn((await findColumn(ports.db, draft.id))!);
}
