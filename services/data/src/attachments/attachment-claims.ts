import type { Principal } from '@tabula/auth';
import { appError } from '@tabula/http';
import type { TableHandle } from '../context/table-handle';
import type { DataPorts } from '../ports';
import { attachmentColumns, bodyValue, itemsOf } from './attachment-cells';

/**
 * Before a write: every attachment in an Attachment column must be a file
 * the writer uploaded (and no base has yet) or one of this base already;
 * storage decides for all columns of all bodies in one call, all or nothing,
 * and records the uses so its garbage collector knows where to look. A
 * refusal is a 400 naming the field; nothing is written.
 */
export async function claimAttachments(ports: DataPorts, handle: TableHandle, bodies: unknown[], principal: Principal): Promise<void> {
  const columns = attachmentColumns(handle.model.columns);
  if (!columns.length) return;
  const items = columns.flatMap((column) => bodies.flatMap((b) => itemsOf(bodyValue(b, column)))
    .map((i) => ({ columnId: column.id, title: column.title, path: i.path, url: i.url })));
  if (!items.length) return;
  const { refused } = await ports.storage.storageAttachmentsClaim({
    body: {
      baseId: handle.baseId, tableId: handle.tableId, userId: principal.kind === 'user' ? principal.id : undefined,
      items: items.map(({ columnId, path, url }) => ({ columnId, path, url })),
    },
  });
  if (refused.length) {
    const item = items[refused[0]];
    // One message whatever the reason (unknown, another base's, another user's upload): it tells nothing about other bases.
    throw appError('ERR_INVALID_ATTACHMENT',
      `Column '${item.title}': '${item.path ?? item.url}' is neither a file you uploaded nor an attachment of this base`);
  }
}
