import Router from '@koa/router';
import { principalOf } from '@tabula/auth';
import { route } from '@tabula/http';
import { dataNestedEndpoints as e } from '@tabula/contracts';
import { nestedList } from '../domain/links/nested-records';
import { linkRecord, unlinkRecord } from '../domain/links/link-records';
import type { DataPorts } from '../ports';

/**
 * Nested records (v1): linked records, link candidates, link and unlink.
 * Registered after the records router, whose view routes share the shape.
 */
export function nestedRouter(ports: DataPorts): Router {
  const router = new Router();
  route(router, e.nestedExcludedList, (ctx) => nestedList(ports, principalOf(ctx), ctx.input.params, ctx.input.query, true));
  route(router, e.nestedList, (ctx) => nestedList(ports, principalOf(ctx), ctx.input.params, ctx.input.query, false));
  route(router, e.nestedAdd, (ctx) => linkRecord(ports, principalOf(ctx), ctx.input.params));
  route(router, e.nestedRemove, (ctx) => unlinkRecord(ports, principalOf(ctx), ctx.input.params));
  return router;
}
