import type { AttachmentRef } from '@tabula/contracts';
import { recordUses, type ObjectUse } from '../repositories/object.repository';
import { joinBase, lockObjectsByKeys, objectsByKeys, type StoredObject } from '../repositories/object-bases.repository';
import { keyOfRef, signedLinkOf } from '../presenters/attachment.presenter';
import type { StoragePorts } from '../ports';

/** Where data is writing attachments, and who writes them. */
export interface ClaimTarget {
  baseId: string;
  tableId: string;
  /** The writing user; absent when a service writes. */
  userId?: string;
  items: (AttachmentRef & { columnId: string })[];
}

/**
 * May this object enter a cell of the base? Only when it already belongs to
 * the base (it was attached there, or in the base this one was copied from),
 * or when it belongs to no base yet and the writer uploaded it. Knowing a key
 * (from a record, a hook payload, an export) is not enough.
 */
export function mayEnterBase(row: StoredObject | undefined, baseId: string, userId: string | undefined): boolean {
  if (!row) return false;
  if (row.bases.length) return row.bases.includes(baseId);
  return userId !== undefined && row.uploaded_by === userId;
}

/**
 * A file by external url as NocoDB's clients write it (`{url, title, mimetype}`, no path): kept
 * as given, never fetched, never signed. Only http(s) urls that name no object of this storage.
 */
export function isExternalRef(item: AttachmentRef): boolean {
  if (typeof item.path === 'string' || typeof item.url !== 'string') return false;
  try {
    const u = new URL(item.url);
    return (u.protocol === 'https:' || u.protocol === 'http:') && !u.username && !u.password;
  } catch {
    return false;
  }
}

/**
 * Internal claim: indexes of the items that may not enter the base (unknown,
 * another base's, another user's fresh upload: refused alike, so the answer
 * tells nothing about what exists). All or nothing: with one refusal nothing
 * is recorded; otherwise every item's use is recorded and fresh uploads join
 * the base. The rows stay locked meanwhile, so two bases racing for one fresh
 * upload cannot both have it.
 */
export async function claimAttachments(ports: StoragePorts, target: ClaimTarget): Promise<{ refused: number[] }> {
  const keys = target.items.map((item) => keyOfRef(ports, item));
  return ports.db.transaction(async (trx) => {
    const known = await lockObjectsByKeys(trx, keys.filter((k): k is string => !!k));
    const rows = keys.map((k) => (k ? known.get(k) : undefined));
    const external = target.items.map((item, i) => !keys[i] && isExternalRef(item));
    const refused = rows.flatMap((row, i) => (external[i] || mayEnterBase(row, target.baseId, target.userId) ? [] : [i]));
    if (refused.length) return { refused };
    const held = rows.flatMap((row, i) => (external[i] ? [] : [{ row: row!, i }]));
    const uses: ObjectUse[] = held.map(({ row, i }) => ({ objectId: row.id, columnId: target.items[i].columnId }));
    await recordUses(trx, uses, target);
    await joinBase(trx, held.filter(({ row }) => !row.bases.length).map(({ row }) => row.id), target.baseId);
    return { refused: [] };
  });
}

/**
 * Internal sign: fresh signed links for a page of attachments of one base;
 * null for whatever is not an object of that base (a value written straight
 * into an external source's table never links to another base's bytes). A
 * copy of a base has the objects of the base it was copied from.
 */
export async function signAttachments(ports: StoragePorts, page: { baseId: string; items: AttachmentRef[] }): Promise<{ links: ({ signedPath?: string; signedUrl?: string } | null)[] }> {
  const { baseId, items } = page;
  const keys = items.map((item) => keyOfRef(ports, item));
  const known = await objectsByKeys(ports.db, keys.filter((k): k is string => !!k));
  return { links: keys.map((k) => (k && known.get(k)?.bases.includes(baseId) ? signedLinkOf(ports, k) : null)) };
}
