import type { FilterGroup } from '@tabula/query';
import type { TableHandle } from '../context/table-handle';
import { countRows, countRowsUpTo, estimateFilteredRows, estimateRows } from '../repositories/records.repository';

/** How long a count waits for this process's in-flight writes to a table before counting without caching. */
const FENCE_WAIT_MS = 250;

/** A page's total: exact, or the planner's estimate (flagged `pageInfo.isEstimate`). */
export interface RowTotal {
  totalRows: number;
  isEstimate: boolean;
}

/**
 * How list pages learn `totalRows` without a full `count(*)` on every page of a
 * large table:
 *
 * 1. A partial page already knows it: `offset + rows` (no query at all).
 * 2. Exact counts are cached per table and filter for `ttlMs` (a few seconds),
 *    so paging through a table counts once; another replica's writes show up
 *    after the TTL. This process's own writes keep the table's unfiltered exact
 *    count current by its delta (rows inserted minus rows deleted: a table
 *    under steady inserts is not recounted on every list) and drop every other
 *    cached count of the table. A count is cached only when no write of this
 *    process to the table was in flight while it ran, so the cached total and
 *    the deltas never overlap (a count racing a write is answered, not kept).
 *    To make that possible under steady writes, an unfiltered count fences
 *    the table: this process's new writes wait for it (one count per table
 *    per TTL, a few ms), writes in flight finish first (at most 250 ms).
 * 3. pg tables whose planner estimate (`pg_class.reltuples`, kept up to date
 *    by autovacuum/ANALYZE) is above `exactMaxRows` report an estimate with
 *    `isEstimate: true` instead of scanning: the table's estimate when
 *    unfiltered, the planner's row estimate of the filtered query (`EXPLAIN`)
 *    otherwise. Estimates are cached like exact counts.
 * 4. Otherwise an exact `count(*)` (filtered counts use the table's indexes).
 *    Pages asking for the same count while it runs share it (one count per
 *    table and filter at a time, not one per request).
 *
 * With `count=exact` (the `exact` argument) step 3 is replaced by a bounded
 * count: up to `exactMaxRows` matching rows are counted exactly whatever the
 * table's size (`countRowsUpTo`: the cost is bounded by that many index
 * entries); above it the answer is the planner's estimate, at least
 * `exactMaxRows + 1`, flagged `isEstimate: true`.
 */
/** Step 1: a partial page (rows, or none at offset 0) knows the total itself. */
function knownFromPage(page: { offset: number; limit: number; rowsOnPage: number }): RowTotal | undefined {
  return page.rowsOnPage < page.limit && (page.rowsOnPage > 0 || page.offset === 0) ? { totalRows: page.offset + page.rowsOnPage, isEstimate: false } : undefined;
}

export class RowCounter {
  private readonly cache = new Map<string, { total: number; isEstimate: boolean; filtered: boolean; until: number }>();

  /** Writes of this process in flight per table (started, not yet through `writeEnded`). */
  private readonly writing = new Map<string, number>();
  /** Per table, how many writes of this process have ended: a count that saw this move may or may not include them. */
  private readonly ended = new Map<string, number>();
  /** Tables whose unfiltered total is being counted with the table fenced: this process's new writes wait. */
  private readonly fences = new Map<string, Promise<void>>();
  /** Woken when a table's last in-flight write ends (a fence waits for that). */
  private readonly drained = new Map<string, Array<() => void>>();
  /** Counts being computed, per key: concurrent pages of one table wait for one count instead of each running its own. */
  private readonly inflight = new Map<string, Promise<RowTotal>>();

  constructor(private readonly exactMaxRows: number, private readonly ttlMs = 5_000) {}

  /** The total for a page of `rowsOnPage` rows read at `offset` with `limit`. */
  async total(handle: TableHandle, filter: FilterGroup, page: { offset: number; limit: number; rowsOnPage: number }, exact = false): Promise<RowTotal> {
    return knownFromPage(page) ?? this.counted(handle, filter, exact);
  }

  /**
   * The total of a page not read yet: with `exact`, the count starts now, so
   * it runs beside the page's own statement (on another pooled connection)
   * instead of after it; the answer, given the page's row count, is the
   * page's own knowledge when it was partial (step 1: the count is then
   * dropped, but cached) or that count. Without `exact` nothing starts early:
   * the default total is an estimate or a cache hit on large tables, and a
   * partial page must not pay for a count it does not need.
   */
  early(handle: TableHandle, filter: FilterGroup, window: { offset: number; limit: number }, exact: boolean): (rowsOnPage: number) => Promise<RowTotal> {
    if (!exact) return (rowsOnPage) => this.total(handle, filter, { ...window, rowsOnPage }, false);
    const counting = this.counted(handle, filter, true);
    // Not awaited when the page answers it (or fails): its failure is not the request's.
    counting.catch(() => undefined);
    return (rowsOnPage) => {
      const known = knownFromPage({ ...window, rowsOnPage });
      return known ? Promise.resolve(known) : counting;
    };
  }

  /** The table's total for `filter` (steps 2-4): cached, shared with a count already running, or counted now. */
  private counted(handle: TableHandle, filter: FilterGroup, exact: boolean): Promise<RowTotal> {
    const key = `${handle.tableId}\u0000${exact ? 'exact' : ''}\u0000${JSON.stringify(filter)}`;
    const hit = this.cache.get(key);
    if (hit && hit.until > Date.now()) return Promise.resolve({ totalRows: hit.total, isEstimate: hit.isEstimate });
    let pending = this.inflight.get(key);
    if (!pending) {
      const tableId = handle.tableId;
      const filtered = filter.children.length > 0;
      pending = (async () => {
        // An unfiltered total is kept across writes (moved by their deltas), so it is counted with the
        // table fenced: this process's new writes wait, in-flight ones finish first (at most FENCE_WAIT_MS).
        const release = filtered ? undefined : await this.fence(tableId);
        try {
          // Cached only when no write of this process was in flight while counting: then the count
          // includes exactly the writes that ended before it, and later ones move it by their delta.
          const quiet = !this.writing.get(tableId);
          const endedBefore = this.ended.get(tableId) ?? 0;
          const result = exact ? await this.computeBounded(handle, filter) : await this.compute(handle, filter);
          if (quiet && (this.ended.get(tableId) ?? 0) === endedBefore) {
            if (this.cache.size > 10_000) this.cache.clear();
            this.cache.set(key, { total: result.totalRows, isEstimate: result.isEstimate, filtered, until: Date.now() + this.ttlMs });
          }
          return result;
        } finally {
          release?.();
        }
      })().finally(() => this.inflight.delete(key));
      this.inflight.set(key, pending);
    }
    return pending;
  }

  private async compute(handle: TableHandle, filter: FilterGroup): Promise<RowTotal> {
    const db = handle.source.knex;
    const estimate = await estimateRows(db, handle);
    if (estimate !== undefined && estimate > this.exactMaxRows) {
      const filteredEstimate = filter.children.length ? await estimateFilteredRows(db, handle, filter) : estimate;
      if (filteredEstimate !== undefined) return { totalRows: filteredEstimate, isEstimate: true };
    }
    return { totalRows: await countRows(db, handle, filter), isEstimate: false };
  }

  private async computeBounded(handle: TableHandle, filter: FilterGroup): Promise<RowTotal> {
    const db = handle.source.knex;
    const n = await countRowsUpTo(db, handle, filter, this.exactMaxRows);
    if (n <= this.exactMaxRows) return { totalRows: n, isEstimate: false };
    const estimate = filter.children.length ? await estimateFilteredRows(db, handle, filter) : await estimateRows(db, handle);
    return { totalRows: Math.max(n, estimate ?? 0), isEstimate: true };
  }

  /** A write of this process to the table begins, once no count fences it (pair with {@link writeEnded}, also when it fails). */
  async writeStarted(tableId: string): Promise<void> {
    for (let fence = this.fences.get(tableId); fence; fence = this.fences.get(tableId)) await fence;
    this.writing.set(tableId, (this.writing.get(tableId) ?? 0) + 1);
  }

  /**
   * Fences a table for a count: new writes wait until the returned release;
   * resolves once the writes in flight have ended, or after FENCE_WAIT_MS
   * (then the count is answered but not cached).
   */
  private async fence(tableId: string): Promise<() => void> {
    for (let other = this.fences.get(tableId); other; other = this.fences.get(tableId)) await other;
    let open: () => void = () => undefined;
    this.fences.set(tableId, new Promise<void>((resolve) => { open = resolve; }));
    if (this.writing.get(tableId)) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, FENCE_WAIT_MS);
        const waiters = this.drained.get(tableId) ?? [];
        waiters.push(() => { clearTimeout(timer); resolve(); });
        this.drained.set(tableId, waiters);
      });
    }
    return () => {
      this.fences.delete(tableId);
      open();
    };
  }

  /** The write ended: committed with `delta` rows (see {@link applyWrite}), or failed (`delta` undefined drops the table's counts). */
  writeEnded(tableId: string, delta: number | undefined): void {
    const left = (this.writing.get(tableId) ?? 1) - 1;
    if (left > 0) this.writing.set(tableId, left);
    else {
      this.writing.delete(tableId);
      const waiters = this.drained.get(tableId);
      this.drained.delete(tableId);
      waiters?.forEach((wake) => wake());
    }
    this.ended.set(tableId, (this.ended.get(tableId) ?? 0) + 1);
    if (this.ended.size > 10_000) this.ended.clear();
    this.applyWrite(tableId, delta);
  }

  /**
   * After a committed write of `delta` rows (inserted minus deleted) to a table:
   * its unfiltered exact counts move by the delta, every other cached count of
   * it goes. `delta` undefined (a write whose row count change is unknown,
   * e.g. delete-all) drops them all.
   */
  applyWrite(tableId: string, delta: number | undefined): void {
    if (delta === 0) return this.dropFiltered(tableId);
    if (delta === undefined) return this.invalidate(tableId);
    const prefix = `${tableId}\u0000`;
    for (const [key, entry] of this.cache) {
      if (!key.startsWith(prefix)) continue;
      const total = entry.total + delta;
      if (entry.filtered || entry.isEstimate || total < 0 || total > this.exactMaxRows) this.cache.delete(key);
      else entry.total = total;
    }
  }

  private dropFiltered(tableId: string): void {
    const prefix = `${tableId}\u0000`;
    for (const [key, entry] of this.cache) if (key.startsWith(prefix) && (entry.filtered || entry.isEstimate)) this.cache.delete(key);
  }

  /** Drops the cached counts of a table. */
  invalidate(tableId: string): void {
    const prefix = `${tableId}\u0000`;
    for (const key of this.cache.keys()) if (key.startsWith(prefix)) this.cache.delete(key);
  }
}
