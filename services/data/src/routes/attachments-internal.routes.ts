import Router from '@koa/router';
import { route } from '@tabula/http';
import { dataAttachmentRefs } from '@tabula/contracts';
import { attachmentRefs } from '../attachments/attachment-refs';
import type { DataPorts } from '../ports';

/** Internal: which attachment values a column still references (storage's GC and downloadAttachment). */
export function attachmentsInternalRouter(ports: DataPorts): Router {
  const router = new Router();
  route(router, dataAttachmentRefs, (ctx) => attachmentRefs(ports, ctx.input.body));
  return router;
}
