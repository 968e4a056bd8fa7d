import Router from '@koa/router';
import { route } from '@tabula/http';
import { storageAttachmentsClaim, storageAttachmentsSign } from '@tabula/contracts';
import { claimAttachments, signAttachments } from '../domain/attachment-links';
import type { StoragePorts } from '../ports';

/** The internal API data calls: claim attachments on write, sign them on read. */
export function internalRouter(ports: StoragePorts): Router {
  const router = new Router();
  route(router, storageAttachmentsClaim, (ctx) => claimAttachments(ports, ctx.input.body));
  route(router, storageAttachmentsSign, (ctx) => signAttachments(ports, ctx.input.body));
  return router;
}
