import Router from '@koa/router';
import type { Middleware } from 'koa';
import { principalOf, type Principal } from '@tabula/auth';
import { admitCallers, appError, type EndpointContext, validateEndpoint } from '@tabula/http';
import { storageDownload, storageDownloadAttachment, storageSignedDownload } from '@tabula/contracts';
import { authorizeRead, objectOfRawKey } from '../domain/find-object';
import { findRecordAttachment } from '../domain/download-attachment';
import { serveObject } from '../domain/serve-object';
import type { StoragePorts } from '../ports';

/** The still-encoded remainder of the URL path after a prefix (never the router's decoded param). */
function rawTail(path: string, prefix: string): string {
  return path.slice(prefix.length);
}

/**
 * File downloads: `/download/<key>` (public scope, or an authorized caller),
 * `/dltemp/<token>` (HMAC-signed, expiring) and downloadAttachment (a record
 * the caller may read). All stream with Range support and the safety headers.
 */
export function downloadRouter(ports: StoragePorts): Router {
  const router = new Router();
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
    const row = await findRecordAttachment(ports, principalOf(ctx), { ...params, urlOrPath: query.urlOrPath });
    await serveObject(ports, ctx, row);
  };
  router.get(storageDownload.id, '/download/{*path}', validateEndpoint(storageDownload), download);
  router.get(storageSignedDownload.id, '/dltemp/{*token}', validateEndpoint(storageSignedDownload), signed);
  router.get(storageDownloadAttachment.id, '/api/v2/downloadAttachment/:modelId/:columnId/:rowId',
    admitCallers(storageDownloadAttachment), validateEndpoint(storageDownloadAttachment), attachment);
  return router;
}
