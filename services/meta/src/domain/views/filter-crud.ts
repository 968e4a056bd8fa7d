import { withOutbox } from '@tabula/events';
import { z } from 'zod';
import type { Knex } from 'knex';
import { errors } from '@tabula/http';
import { FILTER_LIMITS, storedFilterTreeProblem } from '@tabula/query';
import type { MetaPorts } from '../../ports';
import { newId } from '@tabula/db';
import { findColumn } from '../../repositories/column.repository';
import {
  deleteFilter as deleteRow, findFilter, insertFilter, listChildren, listFiltersOfViews, nextFilterOrder, updateFilter as updateRow,
} from '../../repositories/filter.repository';
import type { ViewRow } from '../../repositories/view.repository';
import { enqueueViewEvent } from '../../events/meta-event.producer';
import { filterTree, presentFilter } from '../../presenters/view.presenter';
import type { FilterInScope, ViewInScope } from '../scopes/meta-scopes';
import { ensureViewIndexes } from '../tables/table-indexes';
import { filterBodySchema } from '@tabula/contracts';

type FilterBody = z.infer<typeof filterBodySchema>;

async function checkFilter(db: Knex, view: ViewRow, body: FilterBody): Promise<void> {
  if (body.is_group) return;
  if (!body.fk_column_id) throw errors.badRequest('fk_column_id is required');
  const column = await findColumn(db, body.fk_column_id);
  if (!column || column.fk_model_id !== view.fk_model_id) throw errors.notFound('ERR_FIELD_NOT_FOUND', `Field '${body.fk_column_id}' not found`);
  if (!body.comparison_op) throw errors.badRequest('comparison_op is required');
}

async function insertTree(trx: Knex, view: ViewRow, body: FilterBody, parentId: string | null): Promise<string> {
  await checkFilter(trx, view, body);
  if (parentId) {
    const parent = await findFilter(trx, parentId);
    if (!parent || parent.fk_view_id !== view.id || !parent.is_group) throw errors.badRequest(`fk_parent_id '${parentId}' is not a filter group of this view`);
  }
  const id = newId('fi');
  await insertFilter(trx, {
    id, fk_view_id: view.id, fk_hook_id: null, fk_parent_id: parentId, fk_column_id: body.is_group ? null : body.fk_column_id ?? null,
    base_id: view.base_id, comparison_op: body.comparison_op ?? null, comparison_sub_op: body.comparison_sub_op ?? null,
    value: body.value ?? null, logical_op: body.logical_op ?? 'and', is_group: !!body.is_group, order: await nextFilterOrder(trx, view.id, parentId),
  });
  for (const child of body.children ?? []) await insertTree(trx, view, filterBodySchema.parse(child), id);
  return id;
}

/** A view's filters as trees. */
export async function listFilters(ports: MetaPorts, scope: ViewInScope) {
  return { list: filterTree(await listFiltersOfViews(ports.db, [scope.value.view.id])) };
}

/** Groups above a filter to be created under `parentId` (walked upwards, at most one step past the limit). */
async function depthOfParent(db: Knex, parentId: string | null | undefined): Promise<number> {
  let depth = 0;
  for (let id = parentId; id && depth <= FILTER_LIMITS.maxDepth; depth += 1) id = (await findFilter(db, id))?.fk_parent_id ?? null;
  return depth;
}

/** The column ids a filter body (and its nested children) compares. */
function filterColumns(body: FilterBody): (string | null | undefined)[] {
  return [body.fk_column_id, ...(body.children ?? []).flatMap((child) => filterColumns(filterBodySchema.parse(child)))];
}

/** Creates a filter (with nested children for groups); depth and size are checked before anything is saved. */
export async function createFilter(ports: MetaPorts, scope: ViewInScope, body: FilterBody) {
  const { value: { view }, principal } = scope;
  const problem = storedFilterTreeProblem(body, await depthOfParent(ports.db, body.fk_parent_id));
  if (problem) throw errors.badRequest(problem);
  const id = await withOutbox(ports.db, ports.relay, async (trx) => {
    const created = await insertTree(trx, view, body, body.fk_parent_id ?? null);
    await enqueueViewEvent(trx, 'updated', view, principal);
    return created;
  });
  await ensureViewIndexes(ports, scope.value, filterColumns(body));
  return presentFilter((await findFilter(ports.db, id))!);
}

/** One filter. */
export function getFilter(scope: FilterInScope) {
  return presentFilter(scope.value.filter);
}

/** The direct children of a group. */
export async function listFilterChildren(ports: MetaPorts, scope: FilterInScope) {
  return { list: (await listChildren(ports.db, scope.value.filter.id)).map(presentFilter) };
}

/** Changes a filter's column, operator, value or logical op. */
export async function updateFilter(ports: MetaPorts, scope: FilterInScope, body: Partial<FilterBody>) {
  const { value: { filter, view }, principal } = scope;
  const merged = { ...presentFilter(filter), ...body } as FilterBody;
  await checkFilter(ports.db, view, merged);
  await withOutbox(ports.db, ports.relay, async (trx) => {
    const patch: Record<string, unknown> = {};
    for (const key of ['fk_column_id', 'comparison_op', 'comparison_sub_op', 'value', 'logical_op'] as const) if (body[key] !== undefined) patch[key] = body[key];
    await updateRow(trx, filter.id, patch);
    await enqueueViewEvent(trx, 'updated', view, principal);
  });
  if (!merged.is_group) await ensureViewIndexes(ports, scope.value, [merged.fk_column_id]);
  return presentFilter((await findFilter(ports.db, filter.id))!);
}

/** Deletes a filter (and a group's children). */
export async function deleteFilter(ports: MetaPorts, scope: FilterInScope) {
  const { value: { filter, view }, principal } = scope;
  await withOutbox(ports.db, ports.relay, async (trx) => {
    await deleteRow(trx, filter.id);
    await enqueueViewEvent(trx, 'updated', view, principal);
  });
  return true;
}
