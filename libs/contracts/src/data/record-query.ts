import { z } from 'zod';

/** A query parameter given once or repeated: the first value counts (NocoDB). */
export const queryValue = z.union([z.string(), z.array(z.string())]).transform((v) => (Array.isArray(v) ? v[0] : v)).optional();
const first = queryValue;
/** A list given as a comma-separated value or repeated. */
const commaList = z.union([z.string(), z.array(z.string())]).transform((v) => (Array.isArray(v) ? v.join(',') : v)).optional();

/** List / find-one / count query parameters (values reach SQL only through @tabula/query). */
export const readQuerySchema = z.object({
  fields: commaList.describe('Comma-separated titles or ids'),
  sort: commaList.describe('Comma-separated titles, `-` for descending'),
  where: first.describe('Filter expression, e.g. (Status,eq,open)~and(Qty,gt,3)'),
  sortArrJson: first.describe('Sorts as JSON'),
  filterArrJson: first.describe('Filters as JSON'),
  getHiddenColumns: first,
  whereTz: first.describe("The caller's IANA time zone (NocoDB's `whereTz`): DateTime filters by day (eq today, isWithin…) take that zone's days"),
  limit: first.describe('Page size; invalid values mean the default'),
  offset: first.describe('Rows to skip; invalid values mean 0'),
  page: first.describe('1-based page (with pageSize or limit; the one paging rule of every list); ignored when offset is given'),
  pageSize: first.describe('Page size (alias of limit)'),
  count: first.describe('`exact`: list pages report pageInfo.totalRows exactly up to SVC_EXACT_COUNT_MAX_ROWS matching rows (above it: an estimate with pageInfo.isEstimate)'),
});

/** Insert query: `before` (row id) and the `undo` flag (accepted; undo history is the client's). */
export const insertQuerySchema = z.object({ before: first, undo: first });

/** Update-all / delete-all query. */
export const allQuerySchema = z.object({ where: first, filterArrJson: first, viewId: first, all: first, skipPks: first, undo: first });

/** A record as the API answers it: column titles to values. */
export const recordSchema = z.record(z.string(), z.unknown()).meta({ example: { Id: 1, Title: 'first' } });

/**
 * A record body. Documented as an object; the data service checks it itself
 * (column by column, with NocoDB's messages), so the contract accepts any JSON.
 */
export const recordBodySchema = z.unknown().meta({ type: 'object', additionalProperties: true, description: 'Column titles to values' });

/** A bulk body: an array of records (or of `{ Id }` for delete). */
export const recordsBodySchema = z.unknown().meta({ type: 'array', items: { type: 'object', additionalProperties: true }, description: 'Records' });
