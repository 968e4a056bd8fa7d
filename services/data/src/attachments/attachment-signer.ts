import type { ColumnInfo } from '@tabula/contracts';
import type { ApiRecord } from '../presenters/record.presenter';
import type { DataPorts } from '../ports';
import { attachmentColumns, itemsOf, type CellItem } from './attachment-cells';

/**
 * On read: gives every attachment of a page fresh `signedPath`/`signedUrl`
 * links, in one call to storage for the whole page (never one per cell).
 * Stored signed fields are dropped first (they expire). Only objects of the
 * records' base get links: a cell of an external source may hold any path
 * (its rows are written outside this API), and that must not sign another
 * base's file.
 */
export async function signAttachments(ports: DataPorts, baseId: string, columns: ColumnInfo[], records: ApiRecord[]): Promise<void> {
  const cols = attachmentColumns(columns);
  if (!cols.length || !records.length) return;
  const items: CellItem[] = [];
  for (const record of records) {
    for (const c of cols) {
      const cell = record[c.title];
      if (Array.isArray(cell)) items.push(...itemsOf(cell));
    }
  }
  if (!items.length) return;
  for (const item of items) { delete item.signedPath; delete item.signedUrl; }
  const { links } = await ports.storage.storageAttachmentsSign({ body: { baseId, items: items.map((i) => ({ path: i.path, url: i.url })) } });
  links.forEach((link, i) => { if (link) Object.assign(items[i], link); });
}
