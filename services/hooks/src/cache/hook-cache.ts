import type { Knex } from 'knex';
import { LRUCache } from 'lru-cache';
import { activeHooksOfTable, type HookRow } from '../repositories/hook.repository';
import { filtersOfHooks, type HookFilterRow } from '../repositories/hook-filter.repository';

/** The active hooks of one table (every event, oldest first) and their stored filters. */
export interface TableHooks {
  hooks: HookRow[];
  filters: Map<string, HookFilterRow[]>;
}

interface Entry {
  value: TableHooks;
  loadedAt: number;
}

/** Settings of a {@link HookCache}. */
export interface HookCacheOptions {
  /** Tables kept (least recently used dropped first). */
  maxTables: number;
  /** Backstop: an entry older than this is reloaded even without an invalidation. */
  ttlMs: number;
}

async function loadTableHooks(db: Knex, tableId: string): Promise<TableHooks> {
  const hooks = await activeHooksOfTable(db, tableId);
  const filters = new Map<string, HookFilterRow[]>();
  for (const row of await filtersOfHooks(db, hooks.map((h) => h.id))) filters.set(row.fk_hook_id, [...(filters.get(row.fk_hook_id) ?? []), row]);
  return { hooks, filters };
}

/**
 * Active hooks and their filters per table, read by the records consumer and
 * the sync-dispatch check instead of two queries per event. Dropped per table
 * by hook changes: at once in this process ({@link invalidate}, called after
 * every committed hook or filter write), and in other hooks processes through
 * PostgreSQL NOTIFY (see hook-changes.ts). A load that raced with an
 * invalidation is not stored (generation check). While no change listener is
 * connected the cache is bypassed, so a lost NOTIFY cannot leave it stale; the
 * TTL bounds the one remaining window (a process dying between its commit and
 * its NOTIFY). Bounded to `maxTables` entries (lru-cache: least recently used first).
 */
export class HookCache {
  private readonly entries: LRUCache<string, Entry>;
  private readonly loading = new Map<string, { generation: number; promise: Promise<TableHooks> }>();
  private readonly generations = new Map<string, number>();
  private epoch = 0;
  private enabled = false;
  hits = 0;
  misses = 0;

  constructor(private readonly db: Knex, private readonly options: HookCacheOptions) {
    this.entries = new LRUCache({ max: options.maxTables });
  }

  /** Turns caching on (a change listener is connected) or off (bypass: every call reads PostgreSQL). */
  setEnabled(enabled: boolean): void {
    this.enabled = enabled;
    this.invalidateAll();
  }

  /** The table's active hooks and filters. */
  async get(tableId: string): Promise<TableHooks> {
    if (!this.enabled) {
      this.misses += 1;
      return loadTableHooks(this.db, tableId);
    }
    const entry = this.entries.get(tableId);
    if (entry && Date.now() - entry.loadedAt < this.options.ttlMs) {
      this.hits += 1;
      return entry.value;
    }
    this.misses += 1;
    const generation = this.generationOf(tableId);
    const pending = this.loading.get(tableId);
    if (pending && pending.generation === generation) return pending.promise;
    const promise = loadTableHooks(this.db, tableId).then((value) => {
      if (this.enabled && this.generationOf(tableId) === generation) this.store(tableId, value);
      return value;
    }).finally(() => {
      if (this.loading.get(tableId)?.promise === promise) this.loading.delete(tableId);
    });
    this.loading.set(tableId, { generation, promise });
    return promise;
  }

  /** Drops the entries of some tables (a hook or filter of theirs changed). */
  invalidate(tableIds: Iterable<string>): void {
    for (const tableId of tableIds) {
      this.entries.delete(tableId);
      this.loading.delete(tableId);
      this.generations.set(tableId, (this.generations.get(tableId) ?? 0) + 1);
    }
    // keep the generation map bounded too: dropping it moves every table to a new epoch
    if (this.generations.size > this.options.maxTables * 2) this.invalidateAll();
  }

  /** Drops everything (listener reconnected: changes may have been missed). */
  invalidateAll(): void {
    this.entries.clear();
    this.loading.clear();
    this.generations.clear();
    this.epoch += 1;
  }

  /** Tables cached now. */
  get size(): number {
    return this.entries.size;
  }

  private generationOf(tableId: string): number {
    return this.epoch * 1_000_000_000 + (this.generations.get(tableId) ?? 0);
  }

  private store(tableId: string, value: TableHooks): void {
    this.entries.set(tableId, { value, loadedAt: Date.now() });
  }
}
