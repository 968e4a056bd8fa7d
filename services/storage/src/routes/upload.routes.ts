import type Router from '@koa/router';
import { principalOf } from '@tabula/auth';
import { guardedRouter, route, scopeOf, type Authorizer } from '@tabula/http';
import { storageBaseUsage, storageUpload, storageUploadByUrl } from '@tabula/contracts';
import { uploadFiles } from '../domain/upload-files';
import { uploadByUrl } from '../domain/upload-by-url';
import { prefixOf } from '../domain/file-names';
import { baseUsage } from '../repositories/object-bases.repository';
import type { StoreTarget } from '../domain/store-object';
import type { StoragePorts } from '../ports';

function targetOf(ctx: Parameters<typeof principalOf>[0], query: { path?: string; scope?: string }): StoreTarget {
  return { prefix: prefixOf(query.path), scope: query.scope === 'public' ? 'public' : 'private', principal: principalOf(ctx) };
}

/**
 * Uploads (multipart, by URL) and per-base usage. An upload names no base
 * (its `path` only organizes keys): a file joins a base when a record of
 * that base first holds it, or at once when a base-scoped token uploads it.
 */
export function uploadRouter(ports: StoragePorts, authorizer: Authorizer): Router {
  const router = guardedRouter(authorizer);
  route(router, storageUpload, (ctx) => uploadFiles(ports, ctx.req, targetOf(ctx, ctx.input.query)));
  route(router, storageUploadByUrl, (ctx) => uploadByUrl(ports, ctx.input.body, targetOf(ctx, ctx.input.query)));
  route(router, storageBaseUsage, async (ctx) => {
    const { value: baseId } = scopeOf<string>(ctx);
    return { baseId, ...(await baseUsage(ports.db, baseId)) };
  });
  return router;
}
