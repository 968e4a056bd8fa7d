import { LRUCache } from 'lru-cache';
import { metaInternalEndpoints } from '@tabula/contracts';
import { appError, clientOf, type EndpointClient, type ServiceClient } from '@tabula/http';

/** What comments needs to know of a table: where it lives and how its records are keyed. */
export interface TableScope {
  tableId: string;
  baseId: string;
  sourceId: string;
  workspaceId: string | null;
  /** Primary-key columns in order (records events key rows by title). */
  primaryKeys: { title: string; column_name: string }[];
}

interface Entry {
  scope: TableScope;
  until: number;
}

/**
 * Tables as meta describes them (typed internal client), cached for a TTL and
 * dropped at once on `tabula.meta` events of the table or its base.
 */
export class TableDirectory {
  /** Bounded by lru-cache (least recently used first). */
  private readonly entries = new LRUCache<string, Entry>({ max: 10_000 });
  private readonly meta: EndpointClient<typeof metaInternalEndpoints>;

  constructor(services: ServiceClient, private readonly ttlMs: number) {
    this.meta = clientOf(services, metaInternalEndpoints);
  }

  /** The table's scope; 404 ERR_TABLE_NOT_FOUND when it (or its base) is gone. */
  async get(tableId: string): Promise<TableScope> {
    const hit = this.entries.get(tableId);
    if (hit && hit.until > Date.now()) return hit.scope;
    const context = await this.meta.tableContext({ params: { tableId } });
    if (context.base.deleted) throw appError('ERR_TABLE_NOT_FOUND', `Table '${tableId}' not found`);
    const scope: TableScope = {
      tableId: context.table.id, baseId: context.table.base_id, sourceId: context.table.source_id,
      workspaceId: context.base.fk_workspace_id ?? null,
      primaryKeys: context.table.columns.filter((c) => c.pk).map((c) => ({ title: c.title, column_name: c.column_name })),
    };
    if (this.ttlMs > 0) this.entries.set(tableId, { scope, until: Date.now() + this.ttlMs });
    return scope;
  }

  /** Drops a table, or every table of a base (an event key is one or the other). */
  invalidate(id: string): void {
    this.entries.delete(id);
    for (const [key, entry] of [...this.entries.entries()]) if (entry.scope.baseId === id) this.entries.delete(key);
  }
}
