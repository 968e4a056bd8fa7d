import { createHash } from 'node:crypto';
import type { CompiledWhere } from './feed-filter';

const MAX_ENTRIES = 10_000;

/**
 * The hub's compiled `where`s, per table: base streams' (compiled per table
 * on first use, by `load`) and table streams' (one object per table, text and
 * columns, so alike streams share each row's output). A table's entries go
 * when its columns or the table change.
 */
export class FeedWheres {
  private readonly loaded = new Map<string, Promise<CompiledWhere | undefined>>();
  private readonly shared = new Map<string, CompiledWhere>();

  constructor(private readonly load: (tableId: string, where: string) => Promise<CompiledWhere | undefined>) {}

  /** A base stream's `where` for one table (cached; undefined when it names fields the table lacks). */
  forTable(tableId: string, where: string): Promise<CompiledWhere | undefined> {
    const key = `${tableId}\u0000${where}`;
    let hit = this.loaded.get(key);
    if (!hit) {
      if (this.loaded.size > MAX_ENTRIES) this.loaded.clear();
      hit = this.load(tableId, where).catch(() => undefined);
      this.loaded.set(key, hit);
    }
    return hit;
  }

  /** The one compiled `where` of a table's streams with that text over those columns (the first opened). */
  share(tableId: string, where: CompiledWhere): CompiledWhere {
    const key = `${tableId}\u0000${createHash('sha1').update(JSON.stringify(where)).digest('base64')}`;
    const existing = this.shared.get(key);
    if (existing) return existing;
    if (this.shared.size > MAX_ENTRIES) this.shared.clear();
    this.shared.set(key, where);
    return where;
  }

  /** The table or its columns changed: its `where`s are compiled again. */
  forget(tableId: string): void {
    for (const cache of [this.loaded, this.shared]) for (const key of cache.keys()) if (key.startsWith(`${tableId}\u0000`)) cache.delete(key);
  }
}
