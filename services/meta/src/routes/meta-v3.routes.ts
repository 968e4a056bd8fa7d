import type Router from '@koa/router';
import { baseGetV3, baseListV3, fieldGetInTableV3, fieldGetV3, tableGetV3, tableListV3 } from '@tabula/contracts';
import { errors, guardedRouter, nocoV3Missing, route, scopeOf, type Authorizer } from '@tabula/http';
import { principalOf } from '@tabula/auth';
import type { MetaPorts } from '../ports';
import { listBases } from '../domain/bases/list-bases';
import { listTables } from '../domain/tables/list-tables';
import { getTable } from '../domain/tables/get-table';
import type { BaseInScope, ColumnInScope, TableInScope } from '../domain/scopes/meta-scopes';
import { tableNotFound } from '../domain/scopes/table-scope';
import { presentColumn } from '../presenters/column.presenter';
import { presentBaseV3, presentFieldV3, presentTableSummaryV3, presentTableV3 } from '../presenters/meta-v3.presenter';

const fieldNotFound = (id: string) => errors.notFound('ERR_FIELD_NOT_FOUND', `Field '${id}' not found`);

/**
 * NocoDB's v3 meta reads (what n8n's node 4 pickers call) over the v1 use
 * cases: bases, tables and fields in v3's shapes (meta-v3.presenter). A
 * table or field of another base than the path's answers as a missing one;
 * every missing (or hidden) base, table or field answers 422 (nocoV3Missing).
 */
export function metaV3Router(ports: MetaPorts, authorizer: Authorizer): Router {
  const router = guardedRouter(authorizer);
  const m = nocoV3Missing;
  const inBase = (scope: TableInScope | ColumnInScope, baseId: string, missing: () => Error) => {
    if (scope.value.base.id !== baseId) throw missing();
  };
  route(router, baseListV3, m, async (ctx) => {
    const page = await listBases(ports, principalOf(ctx), { limit: 1000 });
    return { list: page.list.map((b) => presentBaseV3(b)) };
  });
  route(router, baseGetV3, m, (ctx) => presentBaseV3(scopeOf<BaseInScope['value']>(ctx).value));
  route(router, tableListV3, m, async (ctx) => {
    const page = await listTables(ports, scopeOf(ctx), {});
    return { list: page.list.map(presentTableSummaryV3) };
  });
  route(router, tableGetV3, m, async (ctx) => {
    const scope = scopeOf<TableInScope['value']>(ctx);
    inBase(scope, ctx.input.params.baseId, () => tableNotFound(ctx.input.params.tableId));
    const table = await getTable(ports, scope);
    return presentTableV3(scope.value.table, table.columns, table.views as never);
  });
  route(router, fieldGetV3, m, (ctx) => {
    const scope = scopeOf<ColumnInScope['value']>(ctx);
    inBase(scope, ctx.input.params.baseId, () => fieldNotFound(ctx.input.params.fieldId));
    return presentFieldV3(presentColumn(scope.value.column));
  });
  route(router, fieldGetInTableV3, m, (ctx) => {
    const scope = scopeOf<ColumnInScope['value']>(ctx);
    inBase(scope, ctx.input.params.baseId, () => fieldNotFound(ctx.input.params.fieldId));
    if (scope.value.table.id !== ctx.input.params.tableId) throw fieldNotFound(ctx.input.params.fieldId);
    return presentFieldV3(presentColumn(scope.value.column));
  });
  return router;
}
