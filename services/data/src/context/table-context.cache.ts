import { LRUCache } from 'lru-cache';

/**
 * In-process cache of table contexts (plus whatever is derived from them),
 * keyed by `baseRef/tableRef` as the client wrote them. Entries are dropped
 * by table id or base id when a `tabula.meta` event arrives; a short TTL is the
 * safety net for a lost event. Concurrent misses for one key share a load.
 * Bounded by lru-cache: past `maxEntries` the least recently used go first.
 */
export class TableContextCache<T extends { baseId: string; tableId: string; dependsOn?: string[] }> {
  private readonly entries: LRUCache<string, { value: T; until: number }>;
  private readonly loading = new Map<string, Promise<T>>();

  constructor(private readonly ttlMs: number, maxEntries = 10_000, private readonly now = () => Date.now()) {
    this.entries = new LRUCache({ max: maxEntries });
  }

  /** The cached value for the refs, loading it on a miss. */
  async get(baseRef: string, tableRef: string, load: () => Promise<T>): Promise<T> {
    const key = `${baseRef}\u0000${tableRef}`;
    const hit = this.entries.get(key);
    if (hit && hit.until > this.now()) return hit.value;
    const pending = this.loading.get(key);
    if (pending) return pending;
    const generation = this.generation;
    const promise = load().then((value) => {
      // A meta event that arrived while loading may describe a newer table: do not cache a stale answer.
      if (generation === this.generation && this.ttlMs > 0) this.store(key, value);
      return value;
    }).finally(() => this.loading.delete(key));
    this.loading.set(key, promise);
    return promise;
  }

  private generation = 0;

  private store(key: string, value: T): void {
    this.entries.set(key, { value, until: this.now() + this.ttlMs });
  }

  /** Drops every entry of a table (any ref spelling), of tables depending on it (links), or of a whole base. */
  invalidate(ids: { tableId?: string; baseId?: string }): void {
    this.generation += 1;
    const gone: string[] = [];
    for (const [key, { value }] of this.entries.entries()) {
      const dependent = !!ids.tableId && !!value.dependsOn?.includes(ids.tableId);
      if ((ids.tableId && value.tableId === ids.tableId) || (ids.baseId && value.baseId === ids.baseId) || dependent) gone.push(key);
    }
    for (const key of gone) this.entries.delete(key);
  }

  /** Drops everything (an event we cannot attribute). */
  clear(): void {
    this.generation += 1;
    this.entries.clear();
  }
}
