import { records, type Row } from './api';

export const PAGE_SIZE = 100;

/**
 * The grid's rows, fetched a page (100 rows) at a time when the grid shows
 * them: nothing else is requested, so a 100,000-row table costs the pages the
 * user scrolls past. `total` comes with every page (pageInfo.totalRows).
 */
export class RowStore {
  private pages = new Map<number, Row[]>();
  private loading = new Set<number>();
  /** Pages shown until their fresh copy arrives (after a refresh): rows never blank out, editors stay open. */
  private stale = new Set<number>();
  private generation = 0;
  private readonly listeners = new Set<() => void>();
  /** Rows in the table (with the current filter); -1 until the first page answers. */
  total = -1;
  /** Page requests made (the budgets test reads it from the grid's data-pages-fetched). */
  fetched = 0;
  error = '';
  private visible: [number, number] = [0, 0];

  constructor(private readonly tableId: string, private readonly query: { where?: string; sort?: string }, private readonly pk: string) {}

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => { this.listeners.delete(listener); };
  }

  /** Bumped on every change (useSyncExternalStore's snapshot). */
  version = 0;

  private notify(): void {
    this.version++;
    for (const listener of this.listeners) listener();
  }

  row(index: number): Row | undefined {
    return this.pages.get(Math.floor(index / PAGE_SIZE))?.[index % PAGE_SIZE];
  }

  /** Makes sure the pages holding rows [first, last] are there or on their way. */
  ensure(first: number, last: number): void {
    this.visible = [first, last];
    const end = this.total < 0 ? 0 : Math.min(last, this.total - 1);
    for (let page = Math.floor(Math.max(0, first) / PAGE_SIZE); page <= Math.floor(Math.max(0, end) / PAGE_SIZE); page++) {
      if ((!this.pages.has(page) || this.stale.has(page)) && !this.loading.has(page)) void this.fetchPage(page);
    }
  }

  private async fetchPage(page: number): Promise<void> {
    const generation = this.generation;
    this.loading.add(page);
    this.fetched++;
    try {
      const result = await records.page(this.tableId, { offset: page * PAGE_SIZE, limit: PAGE_SIZE, ...this.query });
      if (generation !== this.generation) return;
      this.pages.set(page, result.list);
      this.stale.delete(page);
      const grew = this.total !== result.pageInfo.totalRows;
      this.total = result.pageInfo.totalRows;
      this.error = '';
      this.notify();
      if (grew) this.ensure(...this.visible);
    } catch (err) {
      if (generation === this.generation) { this.error = (err as Error).message; this.notify(); }
    } finally {
      if (generation === this.generation) this.loading.delete(page);
    }
  }

  /**
   * Fetches the visible pages again (after inserts and deletes: rows shift),
   * showing the current ones meanwhile; the others are dropped (fetched when shown).
   */
  refresh(): void {
    this.generation++;
    this.loading.clear();
    const [first, last] = this.visible;
    const keep = (page: number) => page >= Math.floor(first / PAGE_SIZE) && page <= Math.floor(last / PAGE_SIZE);
    for (const page of [...this.pages.keys()]) {
      if (keep(page)) this.stale.add(page);
      else this.pages.delete(page);
    }
    this.ensure(first, last);
  }

  /** Merges fields into the loaded row with this primary key (an edit, a live update). */
  patch(key: unknown, fields: Row): boolean {
    for (const [page, rows] of this.pages) {
      const at = rows.findIndex((r) => r[this.pk] === key);
      if (at >= 0) {
        const next = rows.slice();
        next[at] = { ...rows[at], ...fields };
        this.pages.set(page, next);
        this.notify();
        return true;
      }
    }
    return false;
  }
}
