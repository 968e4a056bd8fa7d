import { z } from 'zod';
import { errors } from '@tabula/http';
import { FILTER_LIMITS, storedFilterTreeProblem } from '@tabula/query';
import type { HooksPorts } from '../ports';
import { newId } from '@tabula/db';
import { filtersOfHooks, insertHookFilter, nextFilterOrder } from '../repositories/hook-filter.repository';
import { updateHook } from '../repositories/hook.repository';
import { presentHookFilter } from '../presenters/hook.presenter';
import type { HookInScope } from './hook-access';
import { loadTable } from './table-context';
import { announceHookChange } from '../cache/hook-changes';
import { hookFilterBodySchema, singlePage } from '@tabula/contracts';

type FilterBody = z.infer<typeof hookFilterBodySchema>;

/** A hook's filters (flat, each with its parent id), as one page. */
export async function listHookFilters(ports: HooksPorts, scope: HookInScope) {
  return singlePage((await filtersOfHooks(ports.db, [scope.value.id])).map(presentHookFilter));
}

/** Groups above a filter to be created under `parentId` among a hook's filters. */
function depthIn(filters: { id: string; fk_parent_id: string | null }[], parentId: string | null | undefined): number {
  const parentOf = new Map(filters.map((f) => [f.id, f.fk_parent_id]));
  let depth = 0;
  for (let id = parentId ?? null; id && depth <= FILTER_LIMITS.maxDepth; depth += 1) id = parentOf.get(id) ?? null;
  return depth;
}

/** Creates a filter (and a group's children) on a hook; columns must belong to its table; depth and size are checked first. */
export async function createHookFilter(ports: HooksPorts, scope: HookInScope, body: FilterBody) {
  const hook = scope.value;
  const columns = new Set((await loadTable(ports, hook.fk_model_id)).table.columns.map((c) => c.id));
  const existing = await filtersOfHooks(ports.db, [hook.id]);
  const groups = new Set(existing.filter((f) => f.is_group).map((f) => f.id));
  const problem = storedFilterTreeProblem(body, depthIn(existing, body.fk_parent_id));
  if (problem) throw errors.badRequest(problem);
  const insert = async (node: FilterBody, parentId: string | null): Promise<string> => {
    if (!node.is_group) {
      if (!node.fk_column_id || !columns.has(node.fk_column_id)) throw errors.notFound('ERR_FIELD_NOT_FOUND', `Field '${node.fk_column_id ?? ''}' not found`);
      if (!node.comparison_op) throw errors.badRequest('comparison_op is required');
    }
    if (parentId && !groups.has(parentId)) throw errors.badRequest(`fk_parent_id '${parentId}' is not a filter group of this hook`);
    const id = newId('fi');
    await insertHookFilter(ports.db, {
      id, fk_hook_id: hook.id, fk_parent_id: parentId, fk_column_id: node.is_group ? null : node.fk_column_id ?? null,
      comparison_op: node.comparison_op ?? null, comparison_sub_op: node.comparison_sub_op ?? null, value: node.value ?? null,
      logical_op: node.logical_op ?? 'and', is_group: !!node.is_group, order: await nextFilterOrder(ports.db, hook.id, parentId),
    });
    if (node.is_group) groups.add(id);
    for (const child of node.children ?? []) await insert(hookFilterBodySchema.parse(child), id);
    return id;
  };
  let id: string;
  try {
    id = await insert(body, body.fk_parent_id ?? null);
    if (!hook.condition) await updateHook(ports.db, hook.id, { condition: true });
  } finally {
    // also after a failure part-way: the filters inserted so far are stored
    await announceHookChange(ports.db, ports.hookCache, [hook.fk_model_id]);
  }
  return presentHookFilter((await filtersOfHooks(ports.db, [hook.id])).find((f) => f.id === id)!);
}
