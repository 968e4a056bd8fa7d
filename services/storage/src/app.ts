import type Koa from 'koa';
import { standardServiceApp } from '@tabula/runtime';
import { uploadRouter } from './routes/upload.routes';
import { downloadRouter } from './routes/download.routes';
import { internalRouter } from './routes/internal.routes';
import type { StoragePorts } from './ports';

export type { StoragePorts } from './ports';

/** Builds the storage service app; never listens, reads no environment. */
export function createApp(ports: StoragePorts): Koa {
  return standardServiceApp(ports, {
    routers: [uploadRouter(ports), downloadRouter(ports), internalRouter(ports)],
    readiness: { blobs: () => ports.blobs.ping() },
    // upload-by-url bodies may carry data: URLs (base64) of a whole file; multipart is never read by the JSON parser
    bodyLimit: Math.ceil((ports.config.SVC_ATTACHMENT_FIELD_SIZE * 4) / 3) + 1024 * 1024,
  });
}
