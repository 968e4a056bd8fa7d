import { endpointsIn, type AnyEndpoint } from '../endpoint/define-endpoint';
import * as bases from './bases';
import * as tables from './tables';
import * as columns from './columns';
import * as views from './views';
import * as viewTypes from './view-types';
import * as sorts from './sorts';
import * as indexes from './indexes';
import * as filters from './filters';
import * as swagger from './swagger';
import * as metaV2 from './meta-v2';
import * as metaV3 from './meta-v3';
import * as metaV3Views from './meta-v3-views';
import { metaInternal } from './internal';
import { baseCandidates } from './base-candidates.internal';

export * from './paging';
export * from './resources';
export * from './bases';
export * from './tables';
export * from './columns';
export * from './views';
export * from './view-types';
export * from './sorts';
export * from './filters';
export * from './indexes';
export * from './internal';
export * from './swagger';
export * from './meta-v2';
export * from './meta-v3';
export * from './meta-v3-views';

/**
 * What comments and data ask meta besides `metaInternal`: a table's context by id (the one contract of
 * `GET /internal/tables/{tableId}`, `metaInternal.tableContext`) and a base's candidates.
 */
export const metaInternalEndpoints = { tableContext: metaInternal.tableContext, baseCandidates };

/** Every endpoint of the meta service, by operation id (every contract its modules export). */
export const metaEndpoints: Record<string, AnyEndpoint> = {
  ...endpointsIn(bases, tables, columns, views, viewTypes, sorts, filters, indexes, swagger, metaV2, metaV3, metaV3Views), ...endpointsIn(metaInternal, { baseCandidates }),
};
