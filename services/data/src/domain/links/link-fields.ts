import { appError } from '@tabula/http';
import type { TableHandle } from '../../context/table-handle';
import { linkPlanOf } from '../../model/link-columns';
import { recordNotFound } from '../../model/row-id';
import { requiredMissing } from '../../values/value-errors';
import { selectByKeys, tableOf, type Db } from '../../repositories/records.repository';
import { keyIn, refOf, type OpenLink } from './link-scope';
import { writeLink } from './link-records';
import type { DataPorts } from '../../ports';

type Value = string | number;

/** The link values a record body sets: per link column, the related ids it names. */
export interface LinkFields {
  link: Omit<OpenLink, 'related'>;
  refs: string[];
}

const linkColumnsOf = new WeakMap<TableHandle['model'], boolean>();

/** True when the table has link columns (computed once per model: bulk bodies ask per row). */
function hasLinks(model: TableHandle['model']): boolean {
  let has = linkColumnsOf.get(model);
  if (has === undefined) {
    has = model.columns.some((c) => linkPlanOf(c));
    linkColumnsOf.set(model, has);
  }
  return has;
}

/** Reads the link fields of a body (arrays of ids or `{Id}` objects; a single one for bt/oo). */
export function linkFieldsOf(handle: TableHandle, body: unknown): LinkFields[] {
  if (!body || typeof body !== 'object' || !hasLinks(handle.model)) return [];
  const out: LinkFields[] = [];
  for (const [key, raw] of Object.entries(body as Record<string, unknown>)) {
    const column = handle.model.byKey.get(key);
    const plan = column ? linkPlanOf(column) : undefined;
    if (!column || !plan || raw === undefined) continue;
    const items = raw === null ? [] : Array.isArray(raw) ? raw : [raw];
    if (!plan.many && items.length > 1) throw appError('ERR_INVALID_REQUEST_BODY', `Link field '${column.title}' takes one record`);
    out.push({ link: { handle, column, plan }, refs: items.map((item) => refOf(item, plan.related.pk.title, column.title)) });
  }
  return out;
}

/** 422 when an insert body leaves a required bt link out (before anything is written). */
export function checkRequiredLinks(handle: TableHandle, fields: LinkFields[]): void {
  if (!hasLinks(handle.model)) return;
  for (const column of handle.model.columns) {
    const plan = linkPlanOf(column);
    if (plan?.required && !fields.some((f) => f.link.column === column && f.refs.length)) throw requiredMissing(column.title);
  }
}

async function clearLinks(trx: Db, link: OpenLink, row: Value): Promise<void> {
  const { plan } = link;
  if (plan.junction) {
    const name = link.handle.source.schema ? `${link.handle.source.schema}.${plan.junction.name}` : plan.junction.name;
    await trx.from(name).where(plan.junction.self, row).delete();
  } else if (plan.fkHere) await tableOf(trx, link.handle).where(plan.table.pk, row).update({ [plan.fk!]: null });
  else await tableOf(trx, link.related).where(plan.fk!, row).update({ [plan.fk!]: null });
}

/**
 * Applies a body's link fields to one stored row inside the write's
 * transaction: the related records must exist (404, nothing written); on
 * update the given list replaces the row's links.
 */
export async function applyLinkFields(ports: DataPorts, trx: Db, row: Value, fields: LinkFields[], replace: boolean): Promise<void> {
  for (const { link: partial, refs } of fields) {
    const link: OpenLink = { ...partial, related: await ports.tables.resolve(partial.handle.baseId, partial.plan.related.id) };
    const keys = refs.map((r) => keyIn(link.related, r));
    const found = await selectByKeys(trx, link.related, keys, link.related.model.primaryKeys);
    if (found.length !== new Set(refs).size) {
      const have = new Set(found.map((f) => String(f[link.plan.related.pk.column_name])));
      throw recordNotFound(refs.find((r) => !have.has(r)));
    }
    if (replace) await clearLinks(trx, link, row);
    for (const key of keys) await writeLink(trx, link, row, Object.values(key)[0]);
  }
}
