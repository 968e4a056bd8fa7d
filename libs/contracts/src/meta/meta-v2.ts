import { aliasOf, type AnyEndpoint } from '../endpoint/define-endpoint';
import { baseCreate, baseDelete, baseDuplicate, baseGet, baseInfoGet, baseList, baseUpdate } from './bases';
import {
  tableCreate, tableCreateInSource, tableDelete, tableDuplicate, tableGet, tableList, tableListOfSource, tableReorder, tableUpdate,
} from './tables';
import { columnCreate, columnDelete, columnGet, columnSetPrimary, columnsBulk, columnsHash, columnUpdate } from './columns';
import { gridCreate, viewDelete, viewList, viewUpdate } from './views';
import { sortCreate, sortDelete, sortGet, sortList, sortUpdate } from './sorts';
import { filterChildren, filterCreate, filterDelete, filterGet, filterList, filterUpdate } from './filters';

/**
 * NocoDB's v2 meta paths (`/api/v2/meta/...`): NocoDB 0.301.3 serves each
 * from the handler of its v1 path (one decorator names both), so each is an
 * alias of the v1 contract here: same schemas, same permission on the same
 * scope, same use case (n8n's base and table pickers, scripts written
 * against NocoDB's v2 documentation). `{operation id}V2` each.
 */
const V2 = '/api/v2/meta';
const v2 = <E extends AnyEndpoint>(endpoint: E, path: string): E =>
  aliasOf(endpoint, { id: `${endpoint.id}V2`, path: `${V2}${path}`, summary: `${endpoint.summary} (v2)` });

export const baseListV2 = v2(baseList, '/bases');
export const baseCreateV2 = v2(baseCreate, '/bases');
export const baseGetV2 = v2(baseGet, '/bases/{baseId}');
export const baseUpdateV2 = v2(baseUpdate, '/bases/{baseId}');
export const baseDeleteV2 = v2(baseDelete, '/bases/{baseId}');
export const baseInfoGetV2 = v2(baseInfoGet, '/bases/{baseId}/info');
export const baseDuplicateV2 = v2(baseDuplicate, '/duplicate/{baseId}');

/** `GET /api/v2/meta/bases/{baseId}/tables`: n8n's table picker. */
export const tableListV2 = v2(tableList, '/bases/{baseId}/tables');
export const tableListOfSourceV2 = v2(tableListOfSource, '/bases/{baseId}/{sourceId}/tables');
export const tableCreateV2 = v2(tableCreate, '/bases/{baseId}/tables');
export const tableCreateInSourceV2 = v2(tableCreateInSource, '/bases/{baseId}/{sourceId}/tables');
export const tableGetV2 = v2(tableGet, '/tables/{tableId}');
export const tableUpdateV2 = v2(tableUpdate, '/tables/{tableId}');
export const tableDeleteV2 = v2(tableDelete, '/tables/{tableId}');
export const tableReorderV2 = v2(tableReorder, '/tables/{tableId}/reorder');
export const tableDuplicateV2 = v2(tableDuplicate, '/duplicate/{baseId}/table/{tableId}');

export const columnCreateV2 = v2(columnCreate, '/tables/{tableId}/columns');
export const columnsHashV2 = v2(columnsHash, '/tables/{tableId}/columns/hash');
export const columnsBulkV2 = v2(columnsBulk, '/tables/{tableId}/columns/bulk');
export const columnGetV2 = v2(columnGet, '/columns/{columnId}');
export const columnUpdateV2 = v2(columnUpdate, '/columns/{columnId}');
export const columnDeleteV2 = v2(columnDelete, '/columns/{columnId}');
export const columnSetPrimaryV2 = v2(columnSetPrimary, '/columns/{columnId}/primary');

/** `GET /api/v2/meta/tables/{tableId}/views`: n8n's view picker. */
export const viewListV2 = v2(viewList, '/tables/{tableId}/views');
export const gridCreateV2 = v2(gridCreate, '/tables/{tableId}/grids');
export const viewUpdateV2 = v2(viewUpdate, '/views/{viewId}');
export const viewDeleteV2 = v2(viewDelete, '/views/{viewId}');

export const sortListV2 = v2(sortList, '/views/{viewId}/sorts');
export const sortCreateV2 = v2(sortCreate, '/views/{viewId}/sorts');
export const sortGetV2 = v2(sortGet, '/sorts/{sortId}');
export const sortUpdateV2 = v2(sortUpdate, '/sorts/{sortId}');
export const sortDeleteV2 = v2(sortDelete, '/sorts/{sortId}');

export const filterListV2 = v2(filterList, '/views/{viewId}/filters');
export const filterCreateV2 = v2(filterCreate, '/views/{viewId}/filters');
export const filterChildrenV2 = v2(filterChildren, '/filters/{parentId}/children');
export const filterGetV2 = v2(filterGet, '/filters/{filterId}');
export const filterUpdateV2 = v2(filterUpdate, '/filters/{filterId}');
export const filterDeleteV2 = v2(filterDelete, '/filters/{filterId}');
