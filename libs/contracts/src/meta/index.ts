import type { AnyEndpoint } from '../endpoint/define-endpoint';
import { baseCreate, baseDelete, baseDuplicate, baseGet, baseInfoGet, baseList, baseUpdate } from './bases';
import { tableCreate, tableCreateInSource, tableDelete, tableDuplicate, tableGet, tableList, tableListOfSource, tableReorder, tableUpdate } from './tables';
import { columnCreate, columnDelete, columnGet, columnSetPrimary, columnsBulk, columnsHash, columnUpdate } from './columns';
import { gridCreate, viewDelete, viewList, viewUpdate } from './views';
import { sortCreate, sortDelete, sortGet, sortList, sortUpdate } from './sorts';
import { indexCreate, indexDelete, indexList } from './indexes';
import { filterChildren, filterCreate, filterDelete, filterGet, filterList, filterUpdate } from './filters';
import { metaInternal } from './internal';
import { baseSwagger, baseSwaggerPage } from './swagger';
import { baseCandidates } from './base-candidates.internal';

export * from './paging';
export * from './resources';
export * from './bases';
export * from './tables';
export * from './columns';
export * from './views';
export * from './sorts';
export * from './filters';
export * from './indexes';
export * from './internal';
export * from './swagger';

/**
 * What comments and data ask meta besides `metaInternal`: a table's context by id (the one contract of
 * `GET /internal/tables/{tableId}`, `metaInternal.tableContext`) and a base's candidates.
 */
export const metaInternalEndpoints = { tableContext: metaInternal.tableContext, baseCandidates };

/** Every endpoint of the meta service, by operation id. */
export const metaEndpoints: Record<string, AnyEndpoint> = Object.fromEntries([
  baseList, baseCreate, baseGet, baseUpdate, baseDelete, baseInfoGet, baseDuplicate, baseSwagger, baseSwaggerPage,
  tableList, tableListOfSource, tableCreate, tableCreateInSource, tableGet, tableUpdate, tableDelete, tableReorder, tableDuplicate,
  columnCreate, columnsHash, columnsBulk, columnGet, columnUpdate, columnDelete, columnSetPrimary,
  viewList, gridCreate, viewUpdate, viewDelete, sortList, sortCreate, sortGet, sortUpdate, sortDelete,
  filterList, filterCreate, filterChildren, filterGet, filterUpdate, filterDelete, indexList, indexCreate, indexDelete, ...Object.values(metaInternal), baseCandidates,
].map((e) => [e.id, e]));
