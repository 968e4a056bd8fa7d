import type Router from '@koa/router';
import { guardedRouter, route, scopeOf, type Authorizer } from '@tabula/http';
import { dataNestedEndpoints as e } from '@tabula/contracts';
import { nestedList } from '../domain/links/nested-records';
import { linkRecord, unlinkRecord } from '../domain/links/link-records';
import type { TableTarget } from '../domain/table-access';
import type { DataPorts } from '../ports';

/**
 * Nested records (v1): linked records, link candidates (data.read), link and
 * unlink (data.write). Registered after the records router, whose view routes
 * share the shape.
 */
export function nestedRouter(ports: DataPorts, authorizer: Authorizer): Router {
  const router = guardedRouter(authorizer);
  const table = scopeOf<TableTarget>;
  route(router, e.nestedExcludedList, (ctx) => nestedList(ports, table(ctx), ctx.input.params, ctx.input.query, { exclude: true }));
  route(router, e.nestedList, (ctx) => nestedList(ports, table(ctx), ctx.input.params, ctx.input.query));
  route(router, e.nestedAdd, (ctx) => linkRecord(ports, table(ctx), ctx.input.params));
  route(router, e.nestedRemove, (ctx) => unlinkRecord(ports, table(ctx), ctx.input.params));
  return router;
}
