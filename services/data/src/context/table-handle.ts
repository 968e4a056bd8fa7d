import { ColumnIndex, type ColumnMeta } from '@tabula/query';
import type { ColumnInfo } from '@tabula/contracts';
import type { ServiceClient } from '@tabula/http';
import { buildTableModel, type TableModel } from '../model/table-model';
import type { SourceRegistry, SourceHandle } from '../sources/source-registry';
import { fetchTableContext, fetchTableContextById, metaClientOf, type MetaClient } from './meta.client';
import { TableContextCache } from './table-context.cache';

/** A table ready to serve: its model, the query library's column index and its source. */
export interface TableHandle {
  baseId: string;
  tableId: string;
  model: TableModel;
  index: ColumnIndex;
  source: SourceHandle;
}

/** The query library's view of a column. */
export function toColumnMeta(c: ColumnInfo): ColumnMeta {
  return {
    id: c.id, title: c.title, column_name: c.column_name, uidt: c.uidt, dt: c.dt ?? undefined, pk: c.pk, system: c.system,
    colOptions: c.colOptions?.options ? { options: c.colOptions.options } : undefined,
  };
}

/** Resolves `{baseName}/{tableName}` to a cached {@link TableHandle}. */
export class TableResolver {
  readonly cache: TableContextCache<TableHandle>;

  private readonly meta: MetaClient;

  constructor(services: ServiceClient, private readonly sources: SourceRegistry, ttlMs: number) {
    this.cache = new TableContextCache<TableHandle>(ttlMs);
    this.meta = metaClientOf(services);
  }

  /** The table with this id (its base learned from meta, then cached like any ref). */
  async resolveById(tableId: string): Promise<TableHandle> {
    const context = await fetchTableContextById(this.meta, tableId);
    return this.resolve(context.base.id, context.table.id);
  }

  /** The table named by the refs (404 from meta when missing). */
  resolve(baseRef: string, tableRef: string): Promise<TableHandle> {
    return this.cache.get(baseRef, tableRef, async () => {
      const context = await fetchTableContext(this.meta, baseRef, tableRef);
      const model = buildTableModel(context);
      return {
        baseId: context.base.id, tableId: context.table.id, model,
        index: new ColumnIndex(model.columns.map(toColumnMeta)),
        source: this.sources.handleOf(context.source),
      };
    });
  }
}
