import { ColumnIndex, type ColumnMeta } from '@tabula/query';
import type { ColumnInfo, TableContext } from '@tabula/contracts';
import { buildTableModel, type TableModel } from '../model/table-model';
import { computedOf } from '../model/formula-columns';
import type { SourceRegistry, SourceHandle } from '@tabula/db';
import { fetchTableContext, fetchTableContextById } from './meta.client';
import type { MetaClient } from '../adapters/service-clients';
import { TableContextCache } from './table-context.cache';
import { BaseCandidatesCache } from './base-candidates.cache';
import { resolveBaseRef, type BaseAccess, type Principal } from '@tabula/auth';

/** A table ready to serve: its model, the query library's column index and its source. */
export interface TableHandle {
  baseId: string;
  tableId: string;
  model: TableModel;
  index: ColumnIndex;
  source: SourceHandle;
  /** Tables whose metadata this handle's link columns read (a change to one drops the handle). */
  dependsOn: string[];
}

/** The query library's view of a column. */
export function toColumnMeta(c: ColumnInfo): ColumnMeta {
  return {
    id: c.id, title: c.title, column_name: c.column_name, uidt: c.uidt, dt: c.dt ?? undefined, pk: c.pk, system: c.system,
    colOptions: c.colOptions?.options ? { options: c.colOptions.options } : undefined,
    computed: computedOf(c),
  };
}

/** Resolves `{baseName}/{tableName}` to a cached {@link TableHandle}. */
export class TableResolver {
  readonly cache: TableContextCache<TableHandle>;
  /** Base references → candidate bases (dropped with every meta event: bases are created and renamed rarely). */
  readonly baseRefs: BaseCandidatesCache;

  constructor(private readonly meta: MetaClient, private readonly sources: SourceRegistry, ttlMs: number) {
    this.cache = new TableContextCache<TableHandle>(ttlMs);
    this.baseRefs = new BaseCandidatesCache(meta, ttlMs);
  }

  /**
   * The table with this id (NocoDB v2 paths, internal reads): its context
   * from meta once, then cached like any ref (dropped by the same meta events).
   */
  resolveById(tableId: string): Promise<TableHandle> {
    return this.cache.get(BY_ID, tableId, async () => this.handleOf(await fetchTableContextById(this.meta, tableId)));
  }

  /**
   * The table a caller names by `{baseName}/{tableName}`: a base title is
   * resolved only among the bases this caller may access (libs/auth `resolveBaseRef`).
   */
  async resolveFor(access: BaseAccess, principal: Principal, baseRef: string, tableRef: string): Promise<TableHandle> {
    const baseId = await resolveBaseRef(access, principal, baseRef, await this.baseRefs.get(baseRef));
    return this.resolve(baseId, tableRef);
  }

  /** The table by base id and table ref (404 from meta when missing). */
  resolve(baseRef: string, tableRef: string): Promise<TableHandle> {
    return this.cache.get(baseRef, tableRef, async () => this.handleOf(await fetchTableContext(this.meta, baseRef, tableRef)));
  }

  private handleOf(context: TableContext): TableHandle {
    const model = buildTableModel(context);
    return {
      baseId: context.base.id, tableId: context.table.id, model,
      index: new ColumnIndex(model.columns.map(toColumnMeta)),
      source: this.sources.handleOf(context.source),
      dependsOn: (context.related ?? []).map((t) => t.id),
    };
  }
}

/** The cache's base ref of handles found by table id (never a base id or title). */
const BY_ID = '\u0001by-id';
