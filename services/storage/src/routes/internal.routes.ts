import Router from '@koa/router';
import { route } from '@tabula/http';
import { storageAttachmentsClaim, storageAttachmentsShare, storageAttachmentsSign } from '@tabula/contracts';
import { claimAttachments, signAttachments } from '../domain/attachment-links';
import { shareAttachments } from '../domain/share-attachments';
import type { StoragePorts } from '../ports';

/** The internal API: data claims attachments on write and signs them on read; meta shares a duplicated base's. */
export function internalRouter(ports: StoragePorts): Router {
  const router = new Router();
  route(router, storageAttachmentsClaim, (ctx) => claimAttachments(ports, ctx.input.body));
  route(router, storageAttachmentsSign, (ctx) => signAttachments(ports, ctx.input.body));
  route(router, storageAttachmentsShare, (ctx) => shareAttachments(ports, ctx.input.body));
  return router;
}
