import type Koa from 'koa';
import { contractAuthorizer } from '@tabula/auth';
import { standardServiceApp } from '@tabula/runtime';
import { uploadRouter } from './routes/upload.routes';
import { downloadRouter } from './routes/download.routes';
import { internalRouter } from './routes/internal.routes';
import { storageScopes } from './domain/storage-access';
import type { StoragePorts } from './ports';

export type { StoragePorts } from './ports';

/** Builds the storage service app; never listens, reads no environment. */
export function createApp(ports: StoragePorts): Koa {
  const authorizer = contractAuthorizer(ports.baseAccess, storageScopes(ports));
  return standardServiceApp(ports, {
    routers: [uploadRouter(ports, authorizer), downloadRouter(ports, authorizer), internalRouter(ports)],
    readiness: { blobs: () => ports.blobs.ping() },
    // upload-by-url bodies may carry data: URLs (base64) of a whole file; multipart is never read by the JSON parser
    bodyLimit: Math.ceil((ports.config.SVC_ATTACHMENT_FIELD_SIZE * 4) / 3) + 1024 * 1024,
  });
}
