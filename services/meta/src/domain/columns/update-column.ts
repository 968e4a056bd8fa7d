import type { Knex } from 'knex';
import type { Principal } from '@tabula/auth';
import type { MetaPorts } from '../../ports';
import { errors } from '@tabula/http';
import { isRelationUidt, isThroughLinkUidt } from '@tabula/query';
import { inSourceAndMetaTransaction } from '../../sources/source-transaction';
import { clearPrimaryValue, findColumn, listColumns, updateColumn as updateRow, type ColumnRow } from '../../repositories/column.repository';
import type { TableRow } from '../../repositories/table.repository';
import { enqueueColumnEvent } from '../../events/meta-event.producer';
import { alterPhysicalColumn } from '../../ddl/column-ddl';
import type { SourceHandle } from '../../ddl/dialect';
import { presentColumn } from '../../presenters/column.presenter';
import type { ColumnInScope } from '../scopes/meta-scopes';
import type { ColumnPatch } from './column-input';
import { patchedColumn } from './column-change';
import { prepareTypeChange, rewriteRenamedOptions } from './convert-values';
import { probeFormula } from './formula-probe';
import { patchedRelationOptions } from './add-relation-column';

/** A relation column cannot become another type, nor a column a relation one: delete and create instead. */
function refuseRelationTypeChange(before: ColumnRow, patch: ColumnPatch): void {
  if (patch.uidt === undefined || patch.uidt === before.uidt) return;
  if (isRelationUidt(before.uidt) || isRelationUidt(patch.uidt)) {
    throw errors.badRequest(`Column '${before.title}' cannot change type from ${before.uidt} to ${patch.uidt}: delete it and create a new column`);
  }
}

/** Changes one column inside the caller's transactions (shared with bulk). */
export async function changeColumnIn(
  ddl: SourceHandle, trx: Knex, table: TableRow, before: ColumnRow, patch: ColumnPatch, principal: Principal,
): Promise<ColumnRow> {
  const existing = await listColumns(trx, table.id);
  refuseRelationTypeChange(before, patch);
  const after = patchedColumn(before, patch, existing, ddl.dialect);
  if (isThroughLinkUidt(after.uidt)) after.col_options = (await patchedRelationOptions(trx, before, patch, existing)) ?? after.col_options;
  if (after.uidt === 'Formula') await probeFormula(ddl, table, after, existing);
  const pkName = existing.find((c) => c.pk)?.column_name ?? 'id';
  await prepareTypeChange(ddl, table.table_name, pkName, before, after);
  await alterPhysicalColumn(ddl, table.table_name, before, after);
  await rewriteRenamedOptions(ddl, table.table_name, pkName, before, after);
  if (patch.pv === true && !before.pv) {
    await clearPrimaryValue(trx, table.id);
    after.pv = true;
  }
  const { id, created_at: _c, updated_at: _u, ...rest } = after;
  await updateRow(trx, id, rest);
  await enqueueColumnEvent(trx, 'updated', after, principal);
  return after;
}

/** PATCH a column: metadata and, where needed, DDL and data conversion. */
export async function updateColumn(ports: MetaPorts, scope: ColumnInScope, patch: ColumnPatch) {
  const { value: { column, table, handle }, principal } = scope;
  await inSourceAndMetaTransaction(ports, handle, (ddl, trx) => changeColumnIn(ddl, trx, table, column, patch, principal));
  return presentColumn((await findColumn(ports.db, column.id))!);
}
