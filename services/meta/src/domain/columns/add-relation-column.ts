import type { Knex } from 'knex';
import { errors } from '@tabula/http';
import { formulaTypeOf, isNoLookupUidt, isThroughLinkUidt } from '@tabula/query';
import type { Principal } from '@tabula/auth';
import { insertColumns, listColumns, type ColumnRow } from '../../repositories/column.repository';
import type { TableRow } from '../../repositories/table.repository';
import { insertViewColumns, viewIdsOf } from '../../repositories/view.repository';
import { enqueueColumnEvent } from '../../events/meta-event.producer';
import { newId } from '@tabula/db';
import type { ColumnFields } from './column-input';
import { checkTitleFree } from './column-draft';
import { isLink, linkColumnRow, linkOf } from './link-column';
import { dependentsOf } from './drop-link-column';
import { formulasUsing } from './formula-column';

/** Rollup functions (NocoDB). */
export const ROLLUP_FUNCTIONS = ['count', 'min', 'max', 'avg', 'sum', 'countDistinct', 'sumDistinct', 'avgDistinct'] as const;
const NUMERIC_ONLY = new Set(['avg', 'sum', 'sumDistinct', 'avgDistinct']);

/** Lookup/Rollup colOptions as stored (NocoDB names, plus the formula type of the value for formulas using it). */
export interface RelationComputedOptions extends Record<string, unknown> {
  fk_relation_column_id: string;
  fk_lookup_column_id?: string;
  fk_rollup_column_id?: string;
  rollup_function?: string;
  /** The value's formula type (number, string, date…), so formulas may reference the column. */
  result_type: string | null;
}

function pick(body: Record<string, unknown>, name: string): unknown {
  return ((body.colOptions ?? {}) as Record<string, unknown>)[name] ?? body[name];
}

function targetType(target: ColumnRow): string | null {
  return formulaTypeOf({ id: target.id, title: target.title, column_name: target.column_name ?? '', uidt: target.uidt, dt: target.dt ?? undefined }) ?? null;
}

/**
 * The checked options of a Lookup or Rollup `body` among the table's `existing`
 * columns. `self`: the id of the lookup or rollup being changed (a PATCH), which
 * its new target's chain must not reach (a cycle).
 */
async function optionsOf(trx: Knex, body: Record<string, unknown>, existing: ColumnRow[], self?: string): Promise<RelationComputedOptions> {
  const relationId = pick(body, 'fk_relation_column_id');
  const relation = existing.find((c) => c.id === relationId);
  if (!relation || !isLink(relation)) throw errors.badRequest(`${String(body.uidt)}: fk_relation_column_id must name a link column of this table`);
  const related = await listColumns(trx, linkOf(relation).fk_related_model_id);
  const key = body.uidt === 'Lookup' ? 'fk_lookup_column_id' : 'fk_rollup_column_id';
  const target = related.find((c) => c.id === pick(body, key));
  if (!target) throw errors.badRequest(`${String(body.uidt)}: ${key} must name a column of the related table`);
  const computed = isThroughLinkUidt(target.uidt) || target.uidt === 'Links';
  if ((!target.column_name && !computed) || isNoLookupUidt(target.uidt)) {
    throw errors.badRequest(`${String(body.uidt)}: column '${target.title}' is computed and cannot be looked up or rolled up`);
  }
  const chain = isThroughLinkUidt(target.uidt) ? await chainOf(trx, target, self) : { list: false };
  if (body.uidt === 'Rollup' && chain.list) throw errors.badRequest(`Rollup: '${target.title}' is a list of values (a lookup through a has-many or many-to-many link); roll up its column instead`);
  const type = target.uidt === 'Links' ? 'number' : isThroughLinkUidt(target.uidt) ? ((target.col_options?.result_type as string | undefined) ?? null) : targetType(target);
  if (body.uidt === 'Lookup') return { fk_relation_column_id: relation.id, fk_lookup_column_id: target.id, result_type: type };
  const fn = String(pick(body, 'rollup_function'));
  if (!(ROLLUP_FUNCTIONS as readonly string[]).includes(fn)) throw errors.badRequest(`Rollup: unknown rollup_function '${fn}' (one of ${ROLLUP_FUNCTIONS.join(', ')})`);
  if (NUMERIC_ONLY.has(fn) && type !== 'number') throw errors.badRequest(`Rollup: ${fn} needs a numeric column; '${target.title}' is ${target.uidt}`);
  const resultType = fn.startsWith('count') || NUMERIC_ONLY.has(fn) ? 'number' : type;
  return { fk_relation_column_id: relation.id, fk_rollup_column_id: target.id, rollup_function: fn, result_type: resultType };
}

/** How deep lookups of lookups and rollups of rollups may go (the data service's MAX_RELATION_DEPTH). */
const MAX_DEPTH = 5;

/**
 * Walks a lookup or rollup target down to the column it finally reads: 400
 * when the chain is longer than {@link MAX_DEPTH}, loops, or breaks (a link or
 * column removed), or reaches `self`. `list`: some lookup on the way goes through a has-many or
 * many-to-many link, so the target's value is a list.
 */
async function chainOf(trx: Knex, start: ColumnRow, self?: string): Promise<{ list: boolean }> {
  const seen = new Set<string>(self ? [self] : []);
  let current: ColumnRow | undefined = start;
  let list = false;
  for (let depth = 1; current && isThroughLinkUidt(current.uidt); depth += 1) {
    if (seen.has(current.id)) throw errors.badRequest(`'${start.title}' looks up through a cycle of lookups and rollups`);
    if (depth >= MAX_DEPTH) throw errors.badRequest(`'${start.title}' looks up through more than ${MAX_DEPTH - 1} levels of lookups and rollups`);
    seen.add(current.id);
    const options = (current.col_options ?? {}) as Record<string, unknown>;
    const own = await listColumns(trx, current.fk_model_id);
    const relation = own.find((c) => c.id === options.fk_relation_column_id);
    if (!relation || !isLink(relation)) throw errors.badRequest(`'${current.title}' no longer reaches its related table`);
    const link = linkOf(relation);
    if (current.uidt === 'Lookup' && (link.type === 'hm' || link.type === 'mm')) list = true;
    const next: ColumnRow | undefined = (await listColumns(trx, link.fk_related_model_id)).find((c) => c.id === (options.fk_lookup_column_id ?? options.fk_rollup_column_id));
    if (!next) throw errors.badRequest(`'${current.title}' no longer reaches its column`);
    current = next;
  }
  return { list };
}

const OPTION_KEYS = ['fk_relation_column_id', 'fk_lookup_column_id', 'fk_rollup_column_id', 'rollup_function'] as const;

/**
 * The options of an existing Lookup or Rollup after a PATCH: undefined when the
 * patch names none of them (a rename keeps them); else the patched options,
 * checked as on creation, and refused (400) when the new target's chain
 * reaches the column itself (a cycle), or when the value's kind would change
 * (its type, or the link it reads through, which decides whether it is a list)
 * while other lookups, rollups or formulas read it: their stored types were
 * checked against the old value.
 */
export async function patchedRelationOptions(trx: Knex, before: ColumnRow, patch: Record<string, unknown>, existing: ColumnRow[]): Promise<RelationComputedOptions | undefined> {
  if (!OPTION_KEYS.some((k) => pick(patch, k) !== undefined)) return undefined;
  const old = (before.col_options ?? {}) as Record<string, unknown>;
  const body: Record<string, unknown> = { uidt: before.uidt };
  for (const k of OPTION_KEYS) body[k] = pick(patch, k) ?? old[k];
  const next = await optionsOf(trx, body, existing, before.id);
  if (next.result_type === (old.result_type ?? null) && next.fk_relation_column_id === old.fk_relation_column_id) return next;
  const readers = [
    ...await dependentsOf(trx, before.base_id, [before.id], 'fk_lookup_column_id'),
    ...await dependentsOf(trx, before.base_id, [before.id], 'fk_rollup_column_id'),
    ...formulasUsing(before.id, existing),
  ];
  if (readers.length) {
    throw errors.badRequest(`${before.uidt} '${before.title}' is read by ${readers.map((c) => `${c.uidt} '${c.title}'`).join(', ')}: `
      + 'it cannot change the kind of value it reads (its type or its link) while they do; change or delete those first');
  }
  return next;
}

/** Adds a Lookup or Rollup column (metadata only: computed by the data service) inside the caller's transaction. */
export async function addRelationColumnIn(trx: Knex, table: TableRow, fields: ColumnFields, principal: Principal): Promise<ColumnRow> {
  const existing = await listColumns(trx, table.id);
  checkTitleFree(fields.title, existing);
  const options = await optionsOf(trx, fields as Record<string, unknown>, existing);
  const order = Math.max(0, ...existing.map((c) => Number(c.order))) + 1;
  const row = { ...linkColumnRow(table, fields.uidt, fields.title, order, options as never), description: fields.description ?? null };
  await insertColumns(trx, [row]);
  const viewIds = await viewIdsOf(trx, table.id);
  await insertViewColumns(trx, viewIds.map((v) => ({ id: newId('nc'), fk_view_id: v, fk_column_id: row.id, show: true, order })));
  await enqueueColumnEvent(trx, 'created', row, principal);
  return row;
}
