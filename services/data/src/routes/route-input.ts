import { z } from 'zod';
import type { Context } from 'koa';
import type { TableRef } from '../domain/table-access';

/** A query parameter given once or repeated: the first value counts (NocoDB). */
const first = z.union([z.string(), z.array(z.string())]).transform((v) => (Array.isArray(v) ? v[0] : v)).optional();

/** List / find-one / count query parameters (values reach SQL only through @tabula/query). */
export const readQuerySchema = z.object({
  /** Comma-separated titles or ids. */
  fields: z.union([z.string(), z.array(z.string())]).transform((v) => (Array.isArray(v) ? v.join(',') : v)).optional(),
  /** Comma-separated titles, `-` for descending. */
  sort: z.union([z.string(), z.array(z.string())]).transform((v) => (Array.isArray(v) ? v.join(',') : v)).optional(),
  /** The filter expression. */
  where: first,
  sortArrJson: first,
  filterArrJson: first,
  getHiddenColumns: first,
  /** Raw: invalid values mean the default (parsePagination). */
  limit: first,
  offset: first,
});

/** Insert query: `before` (row id) and the `undo` flag (accepted; undo history is the client's). */
export const insertQuerySchema = z.object({ before: first, undo: first });

/** Update-all / delete-all query. */
export const allQuerySchema = z.object({ where: first, filterArrJson: first, viewId: first, all: first, skipPks: first, undo: first });

/** Path parameters of a table route, as the router parsed them (decoded). */
export function tableRefOf(ctx: Context): TableRef {
  const p = (ctx as unknown as { params: Record<string, string> }).params;
  return { baseName: p.baseName, tableName: p.tableName, viewName: p.viewName };
}

/** The `{rowId}` path parameter. */
export function rowIdOf(ctx: Context): string {
  return (ctx as unknown as { params: Record<string, string> }).params.rowId;
}
