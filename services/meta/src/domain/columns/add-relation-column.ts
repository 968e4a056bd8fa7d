import type { Knex } from 'knex';
import { errors } from '@tabula/http';
import { formulaTypeOf, isNoLookupUidt } from '@tabula/query';
import type { Principal } from '@tabula/auth';
import { insertColumns, listColumns, type ColumnRow } from '../../repositories/column.repository';
import type { TableRow } from '../../repositories/table.repository';
import { insertViewColumns, viewIdsOf } from '../../repositories/view.repository';
import { enqueueColumnEvent } from '../../events/meta-event.producer';
import { newId } from '@tabula/db';
import type { ColumnFields } from './column-input';
import { checkTitleFree } from './column-draft';
import { isLink, linkColumnRow, linkOf } from './link-column';

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

async function optionsOf(trx: Knex, body: Record<string, unknown>, existing: ColumnRow[]): Promise<RelationComputedOptions> {
  const relationId = pick(body, 'fk_relation_column_id');
  const relation = existing.find((c) => c.id === relationId);
  if (!relation || !isLink(relation)) throw errors.badRequest(`${String(body.uidt)}: fk_relation_column_id must name a link column of this table`);
  const related = await listColumns(trx, linkOf(relation).fk_related_model_id);
  const key = body.uidt === 'Lookup' ? 'fk_lookup_column_id' : 'fk_rollup_column_id';
  const target = related.find((c) => c.id === pick(body, key));
  if (!target) throw errors.badRequest(`${String(body.uidt)}: ${key} must name a column of the related table`);
  if (!target.column_name || isNoLookupUidt(target.uidt)) {
    throw errors.badRequest(`${String(body.uidt)}: column '${target.title}' is computed and cannot be looked up or rolled up`);
  }
  const type = targetType(target);
  if (body.uidt === 'Lookup') return { fk_relation_column_id: relation.id, fk_lookup_column_id: target.id, result_type: type };
  const fn = String(pick(body, 'rollup_function'));
  if (!(ROLLUP_FUNCTIONS as readonly string[]).includes(fn)) throw errors.badRequest(`Rollup: unknown rollup_function '${fn}' (one of ${ROLLUP_FUNCTIONS.join(', ')})`);
  if (NUMERIC_ONLY.has(fn) && type !== 'number') throw errors.badRequest(`Rollup: ${fn} needs a numeric column; '${target.title}' is ${target.uidt}`);
  const resultType = fn.startsWith('count') || NUMERIC_ONLY.has(fn) ? 'number' : type;
  return { fk_relation_column_id: relation.id, fk_rollup_column_id: target.id, rollup_function: fn, result_type: resultType };
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
