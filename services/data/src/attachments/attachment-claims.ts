import { appError, clientOf } from '@tabula/http';
import { storageInternalEndpoints } from '@tabula/contracts';
import type { TableHandle } from '../context/table-handle';
import type { DataPorts } from '../ports';
import { attachmentColumns, bodyValue, itemsOf } from './attachment-cells';

/**
 * Before a write: every attachment in an Attachment column must be one this
 * Tabula's storage issued (storage answers which are not, in one call per
 * column); storage records the use, so its garbage collector knows where to look.
 */
export async function claimAttachments(ports: DataPorts, handle: TableHandle, bodies: unknown[]): Promise<void> {
  const columns = attachmentColumns(handle.model.columns);
  if (!columns.length) return;
  const storage = clientOf(ports.services, storageInternalEndpoints);
  for (const column of columns) {
    const items = bodies.flatMap((b) => itemsOf(bodyValue(b, column))).map((i) => ({ path: i.path, url: i.url }));
    if (!items.length) continue;
    const { unknown } = await storage.storageAttachmentsClaim({
      body: { baseId: handle.baseId, tableId: handle.tableId, columnId: column.id, items },
    });
    if (unknown.length) {
      const item = items[unknown[0]];
      throw appError('ERR_INVALID_ATTACHMENT', `Column '${column.title}': '${item.path ?? item.url}' was not uploaded to this storage`);
    }
  }
}
