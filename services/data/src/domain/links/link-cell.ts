import { appError } from '@tabula/http';
import type { KeyWhere } from '../../model/row-id';
import { tableOf, type Db } from '../../repositories/records.repository';
import { runWrite } from '../write-runner';
import { linkChanges, removeLink, writeLink } from './link-records';
import { linkedScope, openLink, requireRow, type OpenLink } from './link-scope';
import type { TableInScope } from '../table-access';
import type { DataPorts } from '../../ports';

/** One item of a copy / paste / deleteAll body (nocodb-sdk's NestedListCopyPasteOrDeleteAllReqType). */
interface CellOperation {
  operation: 'copy' | 'paste' | 'deleteAll';
  rowId: string;
  columnId?: string;
  fk_related_model_id?: string;
}

/** What changed: the related keys linked and unlinked (`{ <pk title>: value }`). */
export interface CellChange {
  link: Record<string, unknown>[];
  unlink: Record<string, unknown>[];
}

function operationsOf(body: unknown): Partial<Record<CellOperation['operation'], CellOperation>> {
  if (!Array.isArray(body) || !body.length) throw appError('ERR_INVALID_REQUEST_BODY', 'request body must be a non-empty array of { operation, rowId, columnId, fk_related_model_id }');
  const map: Partial<Record<CellOperation['operation'], CellOperation>> = {};
  body.forEach((item: unknown, i) => {
    const op = item as Partial<CellOperation> | null;
    if (!op || typeof op !== 'object' || !['copy', 'paste', 'deleteAll'].includes(String(op.operation)) || (typeof op.rowId !== 'string' && typeof op.rowId !== 'number')) {
      throw appError('ERR_INVALID_REQUEST_BODY', `request body/${i} must have an operation (copy, paste or deleteAll) and a rowId`);
    }
    map[op.operation as CellOperation['operation']] = { ...op, rowId: String(op.rowId) } as CellOperation;
  });
  if (!map.deleteAll && !(map.copy && map.paste)) throw appError('ERR_INVALID_REQUEST_BODY', 'Either a deleteAll operation or a copy and a paste operation is required');
  if (!map.deleteAll && map.copy!.fk_related_model_id !== map.paste!.fk_related_model_id) {
    throw appError('ERR_INVALID_REQUEST_BODY', 'The operation is not supported on different fk_related_model_id');
  }
  return map;
}

/** The related primary key values linked to a row, in key order. */
async function linkedValues(db: Db, link: OpenLink, key: KeyWhere): Promise<(string | number)[]> {
  const pk = link.plan.related.pk.column_name;
  const rows = await tableOf(db, link.related).select(pk).modify(linkedScope(link, db, Object.values(key)[0], false)).orderBy(pk) as Record<string, string | number>[];
  return rows.map((r) => r[pk]);
}

/**
 * POST /api/v2/tables/{tableId}/links/{linkFieldId}/records: a link cell
 * cleared (`deleteAll`: every link of the row removed) or pasted (`copy` +
 * `paste`: the paste row's links become the copy row's), in one transaction
 * with the link use case's events. NocoDB does this on many-to-many fields
 * only and answers nothing for the others; the rows must exist (404).
 */
export async function copyPasteOrDeleteAll(ports: DataPorts, scope: TableInScope, columnRef: string, body: unknown): Promise<CellChange | undefined> {
  const ops = operationsOf(body);
  const link = await openLink(ports, scope, columnRef);
  const pkTitle = link.plan.related.pk.title;
  const asKeys = (values: (string | number)[]) => values.map((v) => ({ [pkTitle]: v }));
  return runWrite(ports, link.handle, undefined, async (trx) => {
    const target = ops.deleteAll ?? ops.paste!;
    const key = await requireRow(trx, link.handle, target.rowId);
    const copyKey = ops.deleteAll ? undefined : await requireRow(trx, link.handle, ops.copy!.rowId);
    if (!link.plan.junction) return { result: undefined };
    const current = await linkedValues(trx, link, key);
    const wanted = copyKey ? await linkedValues(trx, link, copyKey) : [];
    const has = (list: (string | number)[], v: string | number) => list.some((x) => String(x) === String(v));
    const toLink = wanted.filter((v) => !has(current, v));
    const toUnlink = current.filter((v) => !has(wanted, v));
    const row = Object.values(key)[0];
    for (const v of toUnlink) await removeLink(trx, link, row, v);
    for (const v of toLink) await writeLink(trx, link, row, v);
    const related = [...toLink, ...toUnlink].map((v) => ({ [link.plan.related.pk.column_name]: v }));
    const change = related.length ? await linkChanges(trx, link, key, related, scope.principal) : undefined;
    return { result: { link: asKeys(toLink), unlink: asKeys(toUnlink) }, change };
  });
}
