import type { Knex } from 'knex';
import { appError } from '@tabula/http';
import type { Principal } from '@tabula/auth';
import type { KeyWhere } from '../../model/row-id';
import { tableOf, type Db } from '../../repositories/records.repository';
import type { RecordsChange } from '../../events/records-event.producer';
import { readBack } from '../record-reader';
import { runWrite } from '../write-runner';
import { openLink, refOf, requireRow, type OpenLink } from './link-scope';
import type { TableInScope } from '../table-access';
import type { NestedRef } from './nested-records';
import type { DataPorts } from '../../ports';

type Value = string | number;

function junctionOf(link: OpenLink, db: Db): Knex.QueryBuilder {
  const name = link.plan.junction!.name;
  return db.from(link.handle.source.schema ? `${link.handle.source.schema}.${name}` : name);
}

/** Writes one link (row ↔ ref) in the transaction; answers how many rows changed. */
export async function writeLink(trx: Db, link: OpenLink, row: Value, ref: Value): Promise<number> {
  const { plan } = link;
  if (plan.junction) {
    const j = plan.junction;
    const existing = await junctionOf(link, trx).where({ [j.self]: row, [j.other]: ref }).first();
    if (existing) return 0;
    await junctionOf(link, trx).insert({ [j.self]: row, [j.other]: ref });
    return 1;
  }
  if (plan.fkHere) return tableOf(trx, link.handle).where(plan.table.pk, row).update({ [plan.fk!]: ref });
  // The parent side of oo has one child at most: the previous one is unlinked first.
  if (plan.type === 'oo') await tableOf(trx, link.related).where(plan.fk!, row).update({ [plan.fk!]: null });
  return tableOf(trx, link.related).where(plan.related.pk.column_name, ref).update({ [plan.fk!]: row });
}

/** Removes one link; answers how many rows changed (0: the pair was not linked). */
export async function removeLink(trx: Db, link: OpenLink, row: Value, ref: Value): Promise<number> {
  const { plan } = link;
  if (plan.junction) return junctionOf(link, trx).where({ [plan.junction.self]: row, [plan.junction.other]: ref }).delete();
  if (plan.fkHere) return tableOf(trx, link.handle).where({ [plan.table.pk]: row, [plan.fk!]: ref }).update({ [plan.fk!]: null });
  return tableOf(trx, link.related).where({ [plan.related.pk.column_name]: ref, [plan.fk!]: row }).update({ [plan.fk!]: null });
}

/** The update events of both sides of a link change: the row, and the related rows whose links changed (hooks of both tables fire). */
export async function linkChanges(trx: Db, link: OpenLink, key: KeyWhere, refKeys: KeyWhere[], principal: Principal): Promise<RecordsChange[]> {
  const rows = await readBack(trx, link.handle, [key]);
  const related = await readBack(trx, link.related, refKeys);
  return [
    { op: 'update', rows, principal },
    { op: 'update', rows: related, principal, table: link.related },
  ];
}

/** Links (or unlinks) a row and several related rows: each an id, or an object carrying the related primary key (`{Id}`). */
export interface LinkChange {
  rowId: string;
  columnName: string;
  refs: unknown[];
}

/** How a link change treats an unlink of records that are not linked: refused (v1, 400 ERR_NOT_LINKED) or a no-op (v2). */
export interface LinkOptions {
  notLinked: 'refuse' | 'ignore';
}

const MESSAGES = { link: 'The relation data has been created successfully', unlink: 'The relation data has been deleted successfully' };

/**
 * Links or unlinks a row and related rows in one transaction: both sides must
 * exist (404, nothing written); a bt/oo link takes one record; each side's
 * update event carries the rows whose links changed.
 */
export async function changeLinks(ports: DataPorts, scope: TableInScope, change: LinkChange, mode: 'link' | 'unlink', options: LinkOptions) {
  const { principal } = scope;
  const link = await openLink(ports, scope, change.columnName);
  const refRowIds = change.refs.map((r) => refOf(r, link.plan.related.pk.title, link.column.title));
  if (mode === 'link' && !link.plan.many && refRowIds.length > 1) {
    throw appError('ERR_INVALID_REQUEST_BODY', `Link field '${link.column.title}' takes one record`);
  }
  return runWrite(ports, link.handle, undefined, async (trx) => {
    const key = await requireRow(trx, link.handle, change.rowId);
    const refKeys: KeyWhere[] = [];
    for (const refRowId of refRowIds) refKeys.push(await requireRow(trx, link.related, refRowId));
    const changedRefs: KeyWhere[] = [];
    for (const [i, refKey] of refKeys.entries()) {
      const [row, other] = [Object.values(key)[0], Object.values(refKey)[0]];
      const changed = mode === 'link' ? await writeLink(trx, link, row, other) : await removeLink(trx, link, row, other);
      if (mode === 'unlink' && !changed && options.notLinked === 'refuse') {
        throw appError('ERR_NOT_LINKED', `Record '${refRowIds[i]}' is not linked to record '${change.rowId}' through '${link.column.title}'`);
      }
      if (changed) changedRefs.push(refKey);
    }
    return { result: { msg: MESSAGES[mode] }, change: changedRefs.length ? await linkChanges(trx, link, key, changedRefs, principal) : undefined };
  });
}

/** POST .../{rowId}/{relationType}/{columnName}/{refRowId}: links two records (404 when either is missing). */
export function linkRecord(ports: DataPorts, scope: TableInScope, ref: NestedRef & { refRowId: string }) {
  return changeLinks(ports, scope, { ...ref, refs: [ref.refRowId] }, 'link', { notLinked: 'refuse' });
}

/** DELETE .../{rowId}/{relationType}/{columnName}/{refRowId}: unlinks them (400 when they are not linked). */
export function unlinkRecord(ports: DataPorts, scope: TableInScope, ref: NestedRef & { refRowId: string }) {
  return changeLinks(ports, scope, { ...ref, refs: [ref.refRowId] }, 'unlink', { notLinked: 'refuse' });
}
