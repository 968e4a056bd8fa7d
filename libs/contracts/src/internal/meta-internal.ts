/**
 * The meta service's internal API (`/internal/...`, reachable only inside the
 * cluster), used by data, hooks and comments to learn a table's metadata:
 *
 * - `GET /internal/bases/:baseRef/tables/:tableRef` → {@link TableContext}
 *   (baseRef: base id or title; tableRef: table id, title or physical name)
 * - `GET /internal/tables/:tableId` → {@link TableContext}
 * - `GET /internal/bases/:baseRef` → {@link BaseInfo}
 * - `GET /internal/views/:viewId` → {@link TableContext} & { view: ViewInfo }
 *
 * 404 with ERR_BASE_NOT_FOUND / ERR_TABLE_NOT_FOUND when missing (or soft-deleted).
 * Callers cache answers and drop them on `meta.*` events of the table/base.
 */
export interface BaseInfo {
  id: string;
  title: string;
  fk_workspace_id?: string | null;
  deleted?: boolean;
}

/** A data source. Default sources live in a PostgreSQL schema of the data database. */
export interface SourceInfo {
  id: string;
  base_id: string;
  type: 'pg' | 'mysql2' | 'sqlite3';
  /** True for the base's default source (a schema in DATA_DATABASE_URL). */
  is_meta: boolean;
  /** PostgreSQL schema of a default source. */
  schema?: string;
  /** External sources only: the knex `connection` config (internal API only, never public). */
  connection?: Record<string, unknown> | string;
}

/** Column metadata (compat-notes "Tables and columns"). */
export interface ColumnInfo {
  id: string;
  fk_model_id: string;
  title: string;
  column_name: string;
  uidt: string;
  dt?: string | null;
  dtxp?: string | number | null;
  dtxs?: string | number | null;
  pk: boolean;
  pv: boolean;
  rqd: boolean;
  unique: boolean;
  ai: boolean;
  au: boolean;
  cdf?: string | number | boolean | null;
  system: boolean;
  meta?: Record<string, unknown> | null;
  order: number;
  description?: string | null;
  colOptions?: { options?: { id?: string; title: string; color?: string; order?: number }[] } & Record<string, unknown>;
}

/** A stored filter row (view or hook filter), NocoDB shape. */
export interface FilterInfo {
  id: string;
  fk_column_id?: string | null;
  comparison_op?: string | null;
  comparison_sub_op?: string | null;
  value?: unknown;
  logical_op?: 'and' | 'or' | 'not' | null;
  is_group?: boolean;
  fk_parent_id?: string | null;
  children?: FilterInfo[];
}

export interface SortInfo {
  id: string;
  fk_column_id: string;
  direction: 'asc' | 'desc' | 'count-asc' | 'count-desc';
  order: number;
}

export interface ViewColumnInfo {
  fk_column_id: string;
  show: boolean;
  order: number;
}

export interface ViewInfo {
  id: string;
  title: string;
  type: 'grid' | 'form' | 'gallery' | 'kanban' | 'calendar' | 'map';
  fk_model_id: string;
  is_default: boolean;
  columns: ViewColumnInfo[];
  filters: FilterInfo[];
  sorts: SortInfo[];
}

export interface TableInfo {
  id: string;
  base_id: string;
  source_id: string;
  table_name: string;
  title: string;
  type: 'table' | 'view';
  columns: ColumnInfo[];
  views: ViewInfo[];
}

/** Everything the data service needs to serve a table. */
export interface TableContext {
  base: BaseInfo;
  source: SourceInfo;
  table: TableInfo;
  /**
   * The tables this table's link columns reach (related tables and mm junction
   * tables, views left out), so the data service can build relation subqueries
   * without asking again. Absent when the table has no links.
   */
  related?: TableInfo[];
}
