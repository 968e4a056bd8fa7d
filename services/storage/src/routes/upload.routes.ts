import Router from '@koa/router';
import { principalOf } from '@tabula/auth';
import { route } from '@tabula/http';
import { storageBaseUsage, storageUpload, storageUploadByUrl } from '@tabula/contracts';
import { uploadFiles } from '../domain/upload-files';
import { uploadByUrl } from '../domain/upload-by-url';
import { prefixOf } from '../domain/file-names';
import { baseUsage } from '../repositories/object.repository';
import type { StoreTarget } from '../domain/store-object';
import type { StoragePorts } from '../ports';

function targetOf(ctx: Parameters<typeof principalOf>[0], query: { path?: string; scope?: string }): StoreTarget {
  return { prefix: prefixOf(query.path), scope: query.scope === 'public' ? 'public' : 'private', principal: principalOf(ctx) };
}

/** Uploads (multipart, by URL) and per-base usage. */
export function uploadRouter(ports: StoragePorts): Router {
  const router = new Router();
  route(router, storageUpload, (ctx) => uploadFiles(ports, ctx.req, targetOf(ctx, ctx.input.query)));
  route(router, storageUploadByUrl, (ctx) => uploadByUrl(ports, ctx.input.body, targetOf(ctx, ctx.input.query)));
  route(router, storageBaseUsage, async (ctx) => {
    const { baseId } = ctx.input.params;
    await ports.baseAccess.authorize(principalOf(ctx), baseId, 'base.update');
    return { baseId, ...(await baseUsage(ports.db, baseId)) };
  });
  return router;
}
