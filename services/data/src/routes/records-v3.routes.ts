import type Router from '@koa/router';
import type { ParameterizedContext } from 'koa';
import {
  linkCreateV3, linkDeleteV3, linkListV3, recordCountV3, recordCreateV3, recordDeleteV3, recordListV3, recordReadV3, recordUpdateV3,
} from '@tabula/contracts';
import { RawJson, guardedRouter, nocoV3Missing, route, scopeOf, type Authorizer } from '@tabula/http';
import { countRecords, listRecordsV3, type V3RecordPage } from '../domain/list-records';
import { readRecordV3 } from '../domain/read-record';
import { checkPkValue } from '../model/row-id';
import { insertRecordsAs } from '../domain/insert-records';
import { updateRecordsByKey } from '../domain/update-records';
import { bulkDeleteRecords } from '../domain/delete-records';
import { nestedListOf } from '../domain/links/nested-records';
import { changeLinks } from '../domain/links/link-records';
import { v3CreateBodies, v3KeyBodies, v3Sort, v3UpdateBodies } from '../domain/v3-bodies';
import { presentV3Deleted, presentV3Record, v3PageLinks } from '../presenters/record-v3.presenter';
import type { TableModel } from '../model/table-model';
import type { RecordPage } from '../domain/list-records';
import type { TableTarget } from '../domain/table-access';
import type { DataPorts } from '../ports';

/**
 * The request's own URL, as the client sent it: on SVC_PUBLIC_URL when set,
 * else on the host the gateway was asked (`X-Forwarded-Host`, which the
 * gateway writes; the proxied request's Host is the service's own).
 */
function requestUrl(ports: DataPorts, ctx: ParameterizedContext): URL {
  const publicUrl = ports.platform.SVC_PUBLIC_URL?.replace(/\/+$/, '');
  if (publicUrl) return new URL(`${publicUrl}${ctx.originalUrl}`);
  const host = ctx.get('x-forwarded-host') || ctx.get('host') || 'localhost';
  const proto = ctx.get('x-forwarded-proto') || ctx.protocol || 'http';
  return new URL(ctx.originalUrl, `${proto}://${host}`);
}

/** A page of v3 records as v3's `{ records, next?, prev? }`. */
function v3Page(page: V3RecordPage, url: URL) {
  return { records: page.list, ...v3PageLinks(url, page.pageInfo) };
}

/** A v1 page (the link list's) as v3's `{ records, next?, prev? }`. */
function v3PageOf(model: TableModel, page: RecordPage, url: URL) {
  return v3Page({ list: page.list.map((r) => presentV3Record(model, r)), pageInfo: page.pageInfo }, url);
}

/** The related records a v3 link body names: `[{ id }]`, `[id]` or one of them. */
const refsOf = (body: unknown): unknown[] => (Array.isArray(body) ? body : [body]);

/**
 * Records and links (NocoDB v3, `/api/v3/data/{baseId}/{tableId}/…`): the v1
 * use cases on a table named by id (the `table` scope, which answers a table
 * of another base as a missing one), with v3's shapes around them: bodies
 * are turned into v1's (v3-bodies) and answers into `{ id, fields }`
 * records and `{ records, next, prev }` pages (record-v3.presenter).
 */
export function recordsV3Router(ports: DataPorts, authorizer: Authorizer): Router {
  const router = guardedRouter(authorizer);
  const table = scopeOf<TableTarget>;
  const model = (ctx: { state: Record<string, unknown> }) => table(ctx).value.handle.model;

  // Every v3 route answers a missing (or hidden) base, table or field with 422, as NocoDB's v3 does.
  const m = nocoV3Missing;
  route(router, recordCountV3, m, (ctx) => countRecords(table(ctx), ctx.input.query));
  route(router, recordListV3, m, async (ctx) => {
    const { query } = ctx.input;
    const page = await listRecordsV3(ports, table(ctx), { ...query, sort: v3Sort(query.sort) });
    return { ...v3Page(page, requestUrl(ports, ctx)), nestedNext: null };
  });
  route(router, recordReadV3, m, async (ctx) => {
    // The database's `{"id":…,"fields":{…}}` text is sent as is (as v1's record is); else the presented record.
    checkPkValue(table(ctx).value.handle.model, ctx.input.params.recordId);
    const answer = await readRecordV3(ports, table(ctx), ctx.input.params.recordId, ctx.input.query);
    return 'json' in answer ? new RawJson(answer.json) : answer.record;
  });
  route(router, recordCreateV3, m, async (ctx) => {
    const bodies = v3CreateBodies(ctx.request.body);
    if (!bodies.length) return { records: [] };
    const inserted = await insertRecordsAs(ports, table(ctx), bodies, { bulk: true });
    return { records: inserted.records().map((r) => presentV3Record(model(ctx), r)) };
  });
  route(router, recordUpdateV3, m, async (ctx) => {
    const bodies = v3UpdateBodies(model(ctx), ctx.request.body);
    if (!bodies.length) return { records: [] };
    const updated = await updateRecordsByKey(ports, table(ctx), bodies);
    return { records: updated.map((r) => presentV3Record(model(ctx), r)) };
  });
  route(router, recordDeleteV3, m, async (ctx) => {
    const bodies = v3KeyBodies(model(ctx), ctx.request.body);
    if (!bodies.length) return { records: [] };
    const keys = await bulkDeleteRecords(ports, table(ctx), bodies, { strict: true });
    return { records: keys.map((k) => presentV3Deleted(model(ctx), k ?? {})) };
  });

  const at = (params: { recordId: string; linkFieldId: string }) => ({ rowId: params.recordId, columnName: params.linkFieldId });
  route(router, linkListV3, m, async (ctx) => {
    const { params, query } = ctx.input;
    const { page, related } = await nestedListOf(ports, table(ctx), at(params), { ...query, sort: v3Sort(query.sort) }, { columns: 'keyAndDisplay', missingRow: 'notFound' });
    return v3PageOf(related.model, page, requestUrl(ports, ctx));
  });
  route(router, linkCreateV3, m, async (ctx) => {
    await changeLinks(ports, table(ctx), { ...at(ctx.input.params), refs: refsOf(ctx.request.body) }, 'link', { notLinked: 'ignore' });
    return { success: true as const };
  });
  route(router, linkDeleteV3, m, async (ctx) => {
    await changeLinks(ports, table(ctx), { ...at(ctx.input.params), refs: refsOf(ctx.request.body) }, 'unlink', { notLinked: 'ignore' });
    return { success: true as const };
  });
  return router;
}
