import { LRUCache } from 'lru-cache';
import { dataInternalEndpoints } from '@tabula/contracts';
import { AppError, appError, clientOf, type EndpointClient, type ServiceClient } from '@tabula/http';
import type { TableScope } from './table-directory';

/**
 * "Does this record exist?", asked of the data service through its typed
 * internal client (`dataClient.readRecord`). Only positive answers are cached,
 * briefly: a record created a moment ago is commentable at once, and a deleted
 * one is forgotten when its `records.after.delete` arrives or the TTL ends.
 */
export class RecordDirectory {
  /** Bounded by lru-cache (least recently used first). */
  private readonly entries = new LRUCache<string, { rowId: string; until: number }>({ max: 50_000 });
  private readonly data: EndpointClient<typeof dataInternalEndpoints>;

  constructor(services: ServiceClient, private readonly ttlMs: number) {
    this.data = clientOf(services, dataInternalEndpoints);
  }

  /** The record's canonical id; 404 ERR_RECORD_NOT_FOUND when it does not exist. */
  async canonicalId(table: TableScope, rowId: string): Promise<string> {
    const key = `${table.tableId}\u0000${rowId}`;
    const hit = this.entries.get(key);
    if (hit && hit.until > Date.now()) return hit.rowId;
    const found = await this.data.readRecord({ params: { baseId: table.baseId, tableId: table.tableId, rowId } }).catch((err: unknown) => {
      if (err instanceof AppError && err.status === 404) throw appError('ERR_RECORD_NOT_FOUND', `Record '${rowId}' not found`);
      throw err;
    });
    if (this.ttlMs > 0) this.entries.set(key, { rowId: found.row_id, until: Date.now() + this.ttlMs });
    return found.row_id;
  }

  /** Forgets records of a table (all of them, or the given ids). */
  forget(tableId: string, rowIds?: string[]): void {
    if (rowIds) {
      for (const id of rowIds) this.entries.delete(`${tableId}\u0000${id}`);
      return;
    }
    for (const key of [...this.entries.keys()]) if (key.startsWith(`${tableId}\u0000`)) this.entries.delete(key);
  }

  /** Forgets everything (a base went away; its tables are not known here). */
  clear(): void {
    this.entries.clear();
  }
}
