import type Router from '@koa/router';
import type { Middleware } from 'koa';
import type { Principal } from '@tabula/auth';
import { appError, contractGuard, guardedRouter, scopeOf, type Authorizer, type EndpointContext } from '@tabula/http';
import { storageDownload, storageDownloadAttachment, storageSignedDownload, type TableContext } from '@tabula/contracts';
import { authorizeRead, objectOfRawKey } from '../domain/find-object';
import { findRecordAttachment } from '../domain/download-attachment';
import { serveObject } from '../domain/serve-object';
import type { StoragePorts } from '../ports';

/** The still-encoded remainder of the URL path after a prefix (never the router's decoded param). */
function rawTail(path: string, prefix: string): string {
  return path.slice(prefix.length);
}

/**
 * File downloads: `/download/<key>` (public contract: the object's read rule
 * decides), `/dltemp/<token>` (HMAC-signed, expiring) and downloadAttachment
 * (data.read on the record's table, declared on its contract). They stream
 * their own answer (Range, 206), so they are registered on the router with
 * their contract's guard (`contractGuard`) rather than through `route()`;
 * the first two take the rest of the path, slashes included.
 */
export function downloadRouter(ports: StoragePorts, authorizer: Authorizer): Router {
  const router = guardedRouter(authorizer);
  const download: Middleware = async (ctx) => {
    const row = await objectOfRawKey(ports, rawTail(ctx.path, '/download/'));
    await authorizeRead(ports, ctx.state.principal as Principal | undefined, row);
    await serveObject(ports, ctx, row);
  };
  const signed: Middleware = async (ctx) => {
    const grant = ports.signer.verify(rawTail(ctx.path, '/dltemp/'));
    if (grant === 'invalid') throw appError('ERR_INVALID_SIGNATURE', 'Invalid download link');
    if (grant === 'expired') throw appError('ERR_LINK_EXPIRED', 'Download link expired');
    await serveObject(ports, ctx, await objectOfRawKey(ports, grant.key));
  };
  const attachment: Middleware = async (ctx) => {
    const { params, query } = (ctx as unknown as EndpointContext<typeof storageDownloadAttachment>).input;
    const row = await findRecordAttachment(ports, scopeOf<TableContext>(ctx), { ...params, urlOrPath: query.urlOrPath });
    await serveObject(ports, ctx, row);
  };
  router.get(storageDownload.id, '/download/{*path}', ...contractGuard(router, storageDownload), download);
  router.get(storageSignedDownload.id, '/dltemp/{*token}', ...contractGuard(router, storageSignedDownload), signed);
  router.get(storageDownloadAttachment.id, '/api/v2/downloadAttachment/:modelId/:columnId/:rowId', ...contractGuard(router, storageDownloadAttachment), attachment);
  return router;
}
