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
import { tableContext as tableContextById } from './table-context.internal';
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

/** A table's context by id alone (the comments service asks it). */
export const metaInternalEndpoints = { tableContext: tableContextById, baseCandidates };

/** Every endpoint of the meta service, by operation id. */
export const metaEndpoints: Record<string, AnyEndpoint> = Object.fromEntries([
  baseList, baseCreate, baseGet, baseUpdate, baseDelete, baseInfoGet, baseDuplicate, baseSwagger, baseSwaggerPage,
  tableList, tableListOfSource, tableCreate, tableCreateInSource, tableGet, tableUpdate, tableDelete, tableReorder, tableDuplicate,
  columnCreate, columnsHash, columnsBulk, columnGet, columnUpdate, columnDelete, columnSetPrimary,
  viewList, gridCreate, viewUpdate, viewDelete, sortList, sortCreate, sortGet, sortUpdate, sortDelete,
  filterList, filterCreate, filterChildren, filterGet, filterUpdate, filterDelete, indexList, indexCreate, indexDelete, ...Object.values(metaInternal), tableContextById, baseCandidates,
].map((e) => [e.id, e]));
