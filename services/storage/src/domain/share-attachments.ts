import { shareBase, type CopiedTable } from '../repositories/object-bases.repository';
import type { StoragePorts } from '../ports';

/** A copied base: where its rows came from and which tables and columns became which. */
export interface BaseCopy {
  fromBaseId: string;
  toBaseId: string;
  tables: CopiedTable[];
}

/**
 * Internal share (meta, after duplicating a base with its rows): the copy's
 * cells hold the source's files, so every object of the source base becomes
 * an object of the copy (links, downloads and claims there), and the copy's
 * columns become uses of what the source's columns used (the garbage
 * collector keeps a file while a column of either base holds it). One
 * transaction; sharing twice changes nothing.
 */
export async function shareAttachments(ports: StoragePorts, copy: BaseCopy): Promise<{ shared: number }> {
  const shared = await ports.db.transaction((trx) => shareBase(trx, copy.fromBaseId, copy.toBaseId, copy.tables));
  return { shared };
}
