import type { FilterGroup } from '@tabula/query';
import type { TableHandle } from '../context/table-handle';
import { countRows, countRowsUpTo, estimateFilteredRows, estimateRows } from '../repositories/records.repository';

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
 * 2. Exact counts are cached per table and filter for `ttlMs` (a few seconds)
 *    and dropped by this process's own writes to the table, so paging through a
 *    table counts once; another replica's writes show up after the TTL.
 * 3. pg tables whose planner estimate (`pg_class.reltuples`, kept up to date
 *    by autovacuum/ANALYZE) is above `exactMaxRows` report an estimate with
 *    `isEstimate: true` instead of scanning: the table's estimate when
 *    unfiltered, the planner's row estimate of the filtered query (`EXPLAIN`)
 *    otherwise. Estimates are cached like exact counts.
 * 4. Otherwise an exact `count(*)` (filtered counts use the table's indexes).
 *
 * With `count=exact` (the `exact` argument) step 3 is replaced by a bounded
 * count: up to `exactMaxRows` matching rows are counted exactly whatever the
 * table's size (`countRowsUpTo`: the cost is bounded by that many index
 * entries); above it the answer is the planner's estimate, at least
 * `exactMaxRows + 1`, flagged `isEstimate: true`.
 */
export class RowCounter {
  private readonly cache = new Map<string, { total: number; isEstimate: boolean; until: number }>();

  constructor(private readonly exactMaxRows: number, private readonly ttlMs = 5_000) {}

  /** The total for a page of `rowsOnPage` rows read at `offset` with `limit`. */
  async total(handle: TableHandle, filter: FilterGroup, page: { offset: number; limit: number; rowsOnPage: number }, exact = false): Promise<RowTotal> {
    if (page.rowsOnPage < page.limit && (page.rowsOnPage > 0 || page.offset === 0)) {
      return { totalRows: page.offset + page.rowsOnPage, isEstimate: false };
    }
    const key = `${handle.tableId}\u0000${exact ? 'exact' : ''}\u0000${JSON.stringify(filter)}`;
    const hit = this.cache.get(key);
    if (hit && hit.until > Date.now()) return { totalRows: hit.total, isEstimate: hit.isEstimate };
    const result = exact ? await this.computeBounded(handle, filter) : await this.compute(handle, filter);
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(key, { total: result.totalRows, isEstimate: result.isEstimate, until: Date.now() + this.ttlMs });
    return result;
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

  /** Drops the cached counts of a table (after a committed write). */
  invalidate(tableId: string): void {
    const prefix = `${tableId}\u0000`;
    for (const key of this.cache.keys()) if (key.startsWith(prefix)) this.cache.delete(key);
  }
}
