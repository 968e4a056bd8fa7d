import type Router from '@koa/router';
import { linkCreateV2, linkDeleteV2, linkListV2 } from '@tabula/contracts';
import { guardedRouter, route, scopeOf, type Authorizer } from '@tabula/http';
import { nestedList } from '../domain/links/nested-records';
import { changeLinks } from '../domain/links/link-records';
import type { TableTarget } from '../domain/table-access';
import type { DataPorts } from '../ports';

/** The related records a v2 link body names: an array of ids or `{Id}` objects, or one of them. */
const refsOf = (body: unknown): unknown[] => (Array.isArray(body) ? body : [body]);

/**
 * Links (NocoDB v2, `/api/v2/tables/{tableId}/links/{linkFieldId}/records/{recordId}`):
 * the v1 nested use cases on a table named by id. The list answers the
 * related primary key and display value unless `fields` says, and 404 for a
 * record that does not exist (v1: an empty page); link and
 * unlink take several records in one transaction and answer `true` (unlinking
 * records that are not linked is no error, as in NocoDB).
 */
export function linksV2Router(ports: DataPorts, authorizer: Authorizer): Router {
  const router = guardedRouter(authorizer);
  const table = scopeOf<TableTarget>;
  const at = (params: { recordId: string; linkFieldId: string }) => ({ rowId: params.recordId, columnName: params.linkFieldId });
  route(router, linkListV2, (ctx) => nestedList(ports, table(ctx), at(ctx.input.params), ctx.input.query, { columns: 'keyAndDisplay', missingRow: 'notFound' }));
  route(router, linkCreateV2, async (ctx) => {
    await changeLinks(ports, table(ctx), { ...at(ctx.input.params), refs: refsOf(ctx.request.body) }, 'link', { notLinked: 'ignore' });
    return true as const;
  });
  route(router, linkDeleteV2, async (ctx) => {
    await changeLinks(ports, table(ctx), { ...at(ctx.input.params), refs: refsOf(ctx.request.body) }, 'unlink', { notLinked: 'ignore' });
    return true as const;
  });
  return router;
}
