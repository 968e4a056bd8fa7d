import type { AttachmentRef } from '@tabula/contracts';
import { objectsByKeys, recordUses } from '../repositories/object.repository';
import { keyOfRef, signedLinkOf } from '../presenters/attachment.presenter';
import type { StoragePorts } from '../ports';

/** Where data is writing attachments. */
export interface ClaimTarget {
  baseId: string;
  tableId: string;
  columnId: string;
  items: AttachmentRef[];
}

/**
 * Internal claim: indexes of items this storage did not issue (data refuses
 * the write); the known ones are recorded as used by the column.
 */
export async function claimAttachments(ports: StoragePorts, target: ClaimTarget): Promise<{ unknown: number[] }> {
  const keys = target.items.map((item) => keyOfRef(ports, item));
  const known = await objectsByKeys(ports.db, keys.filter((k): k is string => !!k));
  const unknown = keys.flatMap((k, i) => (k && known.has(k) ? [] : [i]));
  await recordUses(ports.db, [...known.values()].map((o) => o.id), target);
  return { unknown };
}

/** Internal sign: fresh signed links for a page of attachments (null for ones storage does not know). */
export async function signAttachments(ports: StoragePorts, items: AttachmentRef[]): Promise<{ links: ({ signedPath?: string; signedUrl?: string } | null)[] }> {
  const keys = items.map((item) => keyOfRef(ports, item));
  const known = await objectsByKeys(ports.db, keys.filter((k): k is string => !!k));
  return { links: keys.map((k) => (k && known.has(k) ? signedLinkOf(ports, k) : null)) };
}
