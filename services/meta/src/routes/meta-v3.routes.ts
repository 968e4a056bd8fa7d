import type Router from '@koa/router';
import {
  baseCreateV3, baseDeleteV3, baseGetV3, baseListV3, baseUpdateV3, fieldCreateV3, fieldDeleteInTableV3, fieldDeleteV3, fieldGetInTableV3,
  fieldGetV3, fieldUpdateInTableV3, fieldUpdateV3, tableCreateV3, tableDeleteV3, tableGetV3, tableListV3, tableUpdateV3,
} from '@tabula/contracts';
import type { Middleware } from 'koa';
import { AppError, appError, errors, guardedRouter, nocoV3Missing, route, scopeOf, type Authorizer } from '@tabula/http';
import { principalOf } from '@tabula/auth';
import type { MetaPorts } from '../ports';
import { listBases } from '../domain/bases/list-bases';
import { listTables } from '../domain/tables/list-tables';
import { getTable } from '../domain/tables/get-table';
import type { BaseInScope, ColumnInScope, TableInScope } from '../domain/scopes/meta-scopes';
import { tableNotFound } from '../domain/scopes/table-scope';
import { presentColumn } from '../presenters/column.presenter';
import { presentBaseV3, presentFieldV3, presentTableSummaryV3, presentTableV3 } from '../presenters/meta-v3.presenter';
import { createBase } from '../domain/bases/create-base';
import { updateBase } from '../domain/bases/update-base';
import { deleteBase } from '../domain/bases/delete-base';
import { createTable } from '../domain/tables/create-table';
import { updateTable } from '../domain/tables/update-table';
import { deleteTable } from '../domain/tables/delete-table';
import { tableDetail } from '../domain/tables/table-detail';
import { addColumn } from '../domain/columns/add-column';
import { updateColumn } from '../domain/columns/update-column';
import { deleteColumn } from '../domain/columns/delete-column';
import { assertCanBePrimary, setPrimaryColumn } from '../domain/columns/set-primary-column';
import { columnOfField, columnPatchOfField } from '../domain/columns/v3-fields';
import { moreScopes } from '../domain/scopes/more-scopes';
import { findBase } from '../repositories/base.repository';
import { findTable } from '../repositories/table.repository';
import { listColumns } from '../repositories/column.repository';

/**
 * NocoDB's v3 answer for a duplicate table or field title: 422
 * ERR_DUPLICATE_IN_ALIAS "Duplicate table alias 'Items' at base 'p…'" (v1's
 * use cases refuse it as 400 ERR_INVALID_REQUEST_BODY, with the duplicate in
 * the error's details).
 */
const duplicateAlias: Middleware = async (ctx, next) => {
  try {
    await next();
  } catch (err) {
    const dup = err instanceof AppError ? (err.details as { duplicateAlias?: { type: string; alias: string; tableId?: string } } | undefined)?.duplicateAlias : undefined;
    if (!dup) throw err;
    const { baseId, tableId } = ctx.params as { baseId?: string; tableId?: string };
    const table = tableId ?? dup.tableId;
    const at = dup.type === 'column' && table ? `table '${table}', base '${baseId}'` : `base '${baseId}'`;
    throw appError('ERR_DUPLICATE_IN_ALIAS', `Duplicate ${dup.type} alias '${dup.alias}' at ${at}`);
  }
};

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

  // A field a write answers: NocoDB's says `system: false` of every field it made or changed.
  const writtenField = (column: ReturnType<typeof presentColumn>) => {
    const field = presentFieldV3(column) as ReturnType<typeof presentFieldV3> & { system?: boolean };
    return { ...field, system: field.system ?? false };
  };
  // Writes: thin shapes over the v1 use cases (their validation, DDL, events and permissions), answering as NocoDB's v3 does.
  const baseOf = async (id: string) => presentBaseV3((await findBase(ports.db, id))!);
  const tableOf = async (id: string) => {
    const row = (await findTable(ports.db, id))!;
    const detail = await tableDetail(ports.db, row);
    return presentTableV3(row, detail.columns, detail.views as never);
  };
  route(router, baseCreateV3, m, async (ctx) => presentBaseV3(await createBase(ports, principalOf(ctx), { ...ctx.input.body, external: false, sources: [] })));
  route(router, baseUpdateV3, m, async (ctx) => {
    const scope = scopeOf<BaseInScope['value']>(ctx);
    await updateBase(ports, scope, ctx.input.body);
    return baseOf(scope.value.id);
  });
  route(router, baseDeleteV3, m, async (ctx) => {
    await deleteBase(ports, scopeOf(ctx));
    return {};
  });
  route(router, tableCreateV3, m, duplicateAlias, async (ctx) => {
    const { body } = ctx.input;
    const created = await createTable(ports, scopeOf(ctx), {
      title: body.title, description: body.description, meta: body.meta, source_id: body.source_id,
      columns: body.fields.map((f) => columnOfField(f)),
    });
    return tableOf(created.id);
  });
  route(router, tableUpdateV3, m, duplicateAlias, async (ctx) => {
    const scope = scopeOf<TableInScope['value']>(ctx);
    const { params, body } = ctx.input;
    inBase(scope, params.baseId, () => tableNotFound(params.tableId));
    // The display field is checked before anything is written (a field of another table is a missing field).
    const display = body.display_field_id === undefined ? undefined
      : (await listColumns(ports.db, scope.value.table.id)).find((c) => c.id === body.display_field_id);
    if (body.display_field_id !== undefined && !display) throw fieldNotFound(body.display_field_id);
    if (display) assertCanBePrimary(display);
    if (body.title !== undefined || body.description !== undefined || body.meta !== undefined) {
      await updateTable(ports, scope, { title: body.title, description: body.description, meta: body.meta });
    }
    if (display && !display.pv) await setPrimaryColumn(ports, { ...scope, value: { ...scope.value, column: display } });
    return tableOf(scope.value.table.id);
  });
  route(router, tableDeleteV3, m, async (ctx) => {
    const scope = scopeOf<TableInScope['value']>(ctx);
    inBase(scope, ctx.input.params.baseId, () => tableNotFound(ctx.input.params.tableId));
    await deleteTable(ports, scope);
    return {};
  });
  route(router, fieldCreateV3, m, duplicateAlias, async (ctx) => {
    const scope = scopeOf<TableInScope['value']>(ctx);
    const { params, body } = ctx.input;
    inBase(scope, params.baseId, () => tableNotFound(params.tableId));
    const column = await addColumn(ports, scope, moreScopes(authorizer, fieldCreateV3, ctx), columnOfField(body, scope.value.table.id));
    return writtenField(column);
  });
  for (const endpoint of [fieldUpdateV3, fieldUpdateInTableV3] as const) {
    route(router, endpoint, m, duplicateAlias, async (ctx) => {
      const scope = scopeOf<ColumnInScope['value']>(ctx);
      const params = ctx.input.params as { baseId: string; tableId?: string; fieldId: string };
      inBase(scope, params.baseId, () => fieldNotFound(params.fieldId));
      if (params.tableId !== undefined && scope.value.table.id !== params.tableId) throw fieldNotFound(params.fieldId);
      return writtenField(await updateColumn(ports, scope, columnPatchOfField(ctx.input.body, scope.value.column)));
    });
  }
  for (const endpoint of [fieldDeleteV3, fieldDeleteInTableV3] as const) {
    route(router, endpoint, m, async (ctx) => {
      const scope = scopeOf<ColumnInScope['value']>(ctx);
      const params = ctx.input.params as { baseId: string; tableId?: string; fieldId: string };
      inBase(scope, params.baseId, () => fieldNotFound(params.fieldId));
      if (params.tableId !== undefined && scope.value.table.id !== params.tableId) throw fieldNotFound(params.fieldId);
      await deleteColumn(ports, scope);
      return {};
    });
  }
  return router;
}
