/**
 * The requests of scripts/compat/v2-compare.ts, in order: each side keeps its
 * own ids (`save` reads them from its own answers).
 */
import { V3_STEPS } from './v3-compare.steps';

export type Ids = Record<string, string>;

export interface Step {
  name: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: (ids: Ids) => string;
  body?: (ids: Ids) => unknown;
  form?: () => FormData;
  save?: (body: any, ids: Ids) => void;
}

const M = '/api/v2/meta';
const R = (ids: Ids) => `/api/v2/tables/${ids.items}/records`;
const L = (ids: Ids, row: string) => `/api/v2/tables/${ids.items}/links/${ids.tagsLink}/records/${row}`;
const idCol = { column_name: 'id', title: 'Id', uidt: 'ID', pk: true, ai: true };
const columnId = (table: any, title: string) => (table?.columns ?? []).find((c: { title: string }) => c.title === title)?.id;
const hook = (title: string) => ({
  title, event: 'after', operation: ['insert'], version: 'v3', active: false,
  notification: { type: 'URL', payload: { method: 'POST', path: 'http://127.0.0.1:9/hook' } },
});
const step = (name: string, method: Step['method'], path: Step['path'], rest: Partial<Step> = {}): Step => ({ name, method, path, ...rest });

const meta: Step[] = [
  step('POST /api/v2/meta/bases/', 'POST', () => `${M}/bases/`, {
    body: () => ({ title: `Compare ${Date.now()}` }), save: (b, ids) => { ids.base = b.id; ids.source = b.sources?.[0]?.id; },
  }),
  step('GET /api/v2/meta/bases/', 'GET', () => `${M}/bases/`),
  step('GET /api/v2/meta/bases/{baseId}', 'GET', (i) => `${M}/bases/${i.base}`),
  step('PATCH /api/v2/meta/bases/{baseId}', 'PATCH', (i) => `${M}/bases/${i.base}`, { body: () => ({ title: `Compare renamed ${Date.now()}` }) }),
  step('GET /api/v2/meta/bases/{baseId}/info', 'GET', (i) => `${M}/bases/${i.base}/info`),
  step('POST /api/v2/meta/bases/{baseId}/tables', 'POST', (i) => `${M}/bases/${i.base}/tables`, {
    body: () => ({ title: 'Items', table_name: 'items', columns: [idCol, { column_name: 'title', title: 'Title', uidt: 'SingleLineText' }, { column_name: 'qty', title: 'Qty', uidt: 'Number' }] }),
    save: (b, ids) => { ids.items = b.id; ids.title = columnId(b, 'Title'); ids.qty = columnId(b, 'Qty'); ids.view = b.views?.[0]?.id; },
  }),
  step('POST …/tables (Tags)', 'POST', (i) => `${M}/bases/${i.base}/tables`, {
    body: () => ({ title: 'Tags', table_name: 'tags', columns: [idCol, { column_name: 'name', title: 'Name', uidt: 'SingleLineText' }] }),
    save: (b, ids) => { ids.tags = b.id; },
  }),
  step('POST /api/v2/meta/bases/{baseId}/{sourceId}/tables', 'POST', (i) => `${M}/bases/${i.base}/${i.source}/tables`, {
    body: () => ({ title: 'Extra', table_name: 'extra', columns: [idCol] }), save: (b, ids) => { ids.extra = b.id; },
  }),
  step('PATCH /api/v2/meta/tables/{tableId}', 'PATCH', (i) => `${M}/tables/${i.extra}`, { body: () => ({ title: 'Extra2' }) }),
  step('POST /api/v2/meta/tables/{tableId}/reorder', 'POST', (i) => `${M}/tables/${i.extra}/reorder`, { body: () => ({ order: 3 }) }),
  step('DELETE /api/v2/meta/tables/{tableId}', 'DELETE', (i) => `${M}/tables/${i.extra}`),
  step('POST /api/v2/meta/tables/{tableId}/columns (Links mm)', 'POST', (i) => `${M}/tables/${i.items}/columns`, {
    body: (i) => ({ title: 'Tags', uidt: 'Links', parentId: i.items, childId: i.tags, type: 'mm' }),
    save: (b, ids) => { ids.tagsLink = columnId(b, 'Tags') ?? b.id; },
  }),
  step('GET /api/v2/meta/bases/{baseId}/tables', 'GET', (i) => `${M}/bases/${i.base}/tables`),
  step('GET /api/v2/meta/bases/{baseId}/tables?includeM2M=true', 'GET', (i) => `${M}/bases/${i.base}/tables?includeM2M=true`),
  step('GET /api/v2/meta/bases/{baseId}/{sourceId}/tables', 'GET', (i) => `${M}/bases/${i.base}/${i.source}/tables`),
  step('GET /api/v2/meta/tables/{tableId}', 'GET', (i) => `${M}/tables/${i.items}`, { save: (b, ids) => { ids.tagsLink = columnId(b, 'Tags') ?? ids.tagsLink; } }),
  step('POST /api/v2/meta/tables/{tableId}/columns', 'POST', (i) => `${M}/tables/${i.items}/columns`, {
    body: () => ({ title: 'Note', uidt: 'SingleLineText' }), save: (b, ids) => { ids.note = columnId(b, 'Note') ?? b.id; },
  }),
  step('GET /api/v2/meta/columns/{columnId}', 'GET', (i) => `${M}/columns/${i.note}`),
  step('PATCH /api/v2/meta/columns/{columnId}', 'PATCH', (i) => `${M}/columns/${i.note}`, { body: () => ({ title: 'Notes', uidt: 'SingleLineText' }) }),
  step('POST /api/v2/meta/columns/{columnId}/primary', 'POST', (i) => `${M}/columns/${i.note}/primary`),
  step('POST …/columns/{columnId}/primary (back)', 'POST', (i) => `${M}/columns/${i.title}/primary`),
  step('GET /api/v2/meta/tables/{tableId}/columns/hash', 'GET', (i) => `${M}/tables/${i.items}/columns/hash`, { save: (b, ids) => { ids.hash = b.hash; } }),
  step('POST /api/v2/meta/tables/{tableId}/columns/bulk', 'POST', (i) => `${M}/tables/${i.items}/columns/bulk`, {
    body: (i) => ({ hash: i.hash, ops: [{ op: 'add', column: { title: 'Bulk', column_name: 'bulk', uidt: 'SingleLineText' } }] }),
  }),
  step('DELETE /api/v2/meta/columns/{columnId}', 'DELETE', (i) => `${M}/columns/${i.note}`),
  step('GET /api/v2/meta/tables/{tableId}/views', 'GET', (i) => `${M}/tables/${i.items}/views`),
  step('POST /api/v2/meta/tables/{tableId}/grids', 'POST', (i) => `${M}/tables/${i.items}/grids`, { body: () => ({ title: 'Big' }), save: (b, ids) => { ids.grid = b.id; } }),
  step('PATCH /api/v2/meta/views/{viewId}', 'PATCH', (i) => `${M}/views/${i.grid}`, { body: () => ({ title: 'Bigger' }) }),
  step('POST /api/v2/meta/views/{viewId}/sorts', 'POST', (i) => `${M}/views/${i.grid}/sorts`, { body: (i) => ({ fk_column_id: i.qty, direction: 'desc' }) }),
  step('GET /api/v2/meta/views/{viewId}/sorts', 'GET', (i) => `${M}/views/${i.grid}/sorts`, { save: (b, ids) => { ids.sort = b.list?.[0]?.id; } }),
  step('GET /api/v2/meta/sorts/{sortId}', 'GET', (i) => `${M}/sorts/${i.sort}`),
  step('PATCH /api/v2/meta/sorts/{sortId}', 'PATCH', (i) => `${M}/sorts/${i.sort}`, { body: () => ({ direction: 'asc' }) }),
  step('DELETE /api/v2/meta/sorts/{sortId}', 'DELETE', (i) => `${M}/sorts/${i.sort}`),
  step('POST /api/v2/meta/views/{viewId}/filters (group)', 'POST', (i) => `${M}/views/${i.grid}/filters`, {
    body: () => ({ is_group: true, logical_op: 'and' }), save: (b, ids) => { ids.group = b.id; },
  }),
  step('POST /api/v2/meta/views/{viewId}/filters', 'POST', (i) => `${M}/views/${i.grid}/filters`, {
    body: (i) => ({ fk_column_id: i.qty, comparison_op: 'gt', value: '5', fk_parent_id: i.group, logical_op: 'and' }), save: (b, ids) => { ids.filter = b.id; },
  }),
  step('GET /api/v2/meta/views/{viewId}/filters', 'GET', (i) => `${M}/views/${i.grid}/filters`),
  step('GET /api/v2/meta/filters/{filterId}', 'GET', (i) => `${M}/filters/${i.filter}`),
  step('GET /api/v2/meta/filters/{parentId}/children', 'GET', (i) => `${M}/filters/${i.group}/children`),
  step('PATCH /api/v2/meta/filters/{filterId}', 'PATCH', (i) => `${M}/filters/${i.filter}`, { body: () => ({ value: '1' }) }),
];

const data: Step[] = [
  step('POST /api/v2/tables/{tableId}/records (one)', 'POST', R, { body: () => ({ Title: 'a', Qty: 1 }) }),
  step('POST …/records (array)', 'POST', R, { body: () => [{ Title: 'b', Qty: 2 }, { Title: 'c', Qty: 30 }] }),
  step('POST …/records ([])', 'POST', R, { body: () => [] }),
  step('POST …/records (Tags)', 'POST', (i) => `/api/v2/tables/${i.tags}/records`, { body: () => [{ Name: 't1' }, { Name: 't2' }] }),
  step('GET /api/v2/tables/{tableId}/records', 'GET', R),
  step('GET …/records?where&sort&fields&limit&offset', 'GET', (i) => `${R(i)}?where=(Qty,gt,0)&sort=-Qty&fields=Title,Qty&limit=1&offset=1`),
  step('GET …/records?fields[]=Title&fields[]=Qty (axios arrays)', 'GET', (i) => `${R(i)}?fields%5B%5D=Title&fields%5B%5D=Qty`),
  step('GET …/records?viewId={viewId}', 'GET', (i) => `${R(i)}?viewId=${i.grid}`),
  step('GET /api/v2/tables/{tableId}/records/count', 'GET', (i) => `${R(i)}/count`),
  step('GET …/records/count?where', 'GET', (i) => `${R(i)}/count?where=(Qty,gt,1)`),
  step('GET …/records/count?viewId', 'GET', (i) => `${R(i)}/count?viewId=${i.grid}`),
  step('GET /api/v2/tables/{tableId}/records/{recordId}', 'GET', (i) => `${R(i)}/1`),
  step('GET …/records/{recordId}?fields=Title', 'GET', (i) => `${R(i)}/1?fields=Title`),
  step('GET …/records/999 (missing)', 'GET', (i) => `${R(i)}/999`),
  step('PATCH /api/v2/tables/{tableId}/records (object)', 'PATCH', R, { body: () => ({ Id: 1, Title: 'a2' }) }),
  step('PATCH …/records (array)', 'PATCH', R, { body: () => [{ Id: 1, Title: 'a3' }, { Id: 2, Qty: 20 }] }),
  step('PATCH …/records (a missing key)', 'PATCH', R, { body: () => [{ Id: 99, Title: 'x' }] }),
  step('DELETE /api/v2/tables/{tableId}/records (a missing key)', 'DELETE', R, { body: () => [{ Id: 99 }] }),
  step('DELETE …/records (object)', 'DELETE', R, { body: () => ({ Id: 3 }) }),
  step('POST /api/v2/tables/{tableId}/links/{linkFieldId}/records/{recordId}', 'POST', (i) => L(i, '1'), { body: () => [{ Id: 1 }, { Id: 2 }] }),
  step('POST …/links (one object)', 'POST', (i) => L(i, '2'), { body: () => ({ Id: 1 }) }),
  step('GET /api/v2/tables/{tableId}/links/{linkFieldId}/records/{recordId}', 'GET', (i) => L(i, '1')),
  step('GET …/links?fields=Name&limit=1&offset=1', 'GET', (i) => `${L(i, '1')}?fields=Name&limit=1&offset=1`),
  step('DELETE /api/v2/tables/{tableId}/links/{linkFieldId}/records/{recordId}', 'DELETE', (i) => L(i, '1'), { body: () => [{ Id: 2 }] }),
  step('DELETE …/links (not linked)', 'DELETE', (i) => L(i, '1'), { body: () => [{ Id: 2 }] }),
  step('POST …/links (a missing record)', 'POST', (i) => L(i, '1'), { body: () => [{ Id: 99 }] }),
  step('GET …/links of a missing record', 'GET', (i) => L(i, '99')),
  step('GET …/records after links (Tags counts)', 'GET', (i) => `${R(i)}?fields=Tags`),
  step('GET /api/v2/tables/mmissing0000000/records', 'GET', () => '/api/v2/tables/mmissing0000000/records'),
  step('GET …/records?viewId=vwmissing', 'GET', (i) => `${R(i)}?viewId=vwmissing`),
  step('GET …/records?where=(Nope,eq,1)', 'GET', (i) => `${R(i)}?where=(Nope,eq,1)`),
  step('GET …/records?fields=Nope', 'GET', (i) => `${R(i)}?fields=Nope`),
  step('GET …/records/abc', 'GET', (i) => `${R(i)}/abc`),
];

/** The rest of nocodb-sdk's v2 data calls: bulk reads, row move, a link cell's copy/paste/deleteAll, button trigger. */
const T = (ids: Ids) => `/api/v2/tables/${ids.items}`;
const cell = (ids: Ids, operation: string, rowId: string) => ({ operation, rowId, columnId: ids.tagsLink, fk_related_model_id: ids.tags });
const more: Step[] = [
  step('POST /api/v2/tables/{tableId}/bulk/dataList', 'POST', (i) => `${T(i)}/bulk/dataList`, { body: () => [{ alias: 'big', where: '(Qty,gt,1)', sort: '-Qty', fields: 'Title,Qty' }, { alias: 'first', limit: 1 }] }),
  step('POST …/bulk/dataList [] (empty)', 'POST', (i) => `${T(i)}/bulk/dataList`, { body: () => [] }),
  step('POST /api/v2/tables/{tableId}/bulk/group?viewId (NocoDB crashes without one)', 'POST', (i) => `${T(i)}/bulk/group?viewId=${i.grid}`, { body: () => [{ alias: 'g', column_name: 'Title' }] }),
  step('POST /api/v2/tables/{tableId}/bulk/aggregate', 'POST', (i) => `${T(i)}/bulk/aggregate?aggregation=${encodeURIComponent(JSON.stringify([{ field: i.qty, type: 'sum' }]))}`, { body: () => [{ alias: 'all' }, { alias: 'big', where: '(Qty,gt,1)' }] }),
  step('POST /api/v2/tables/{tableId}/records/{recordId}/move?before=1', 'POST', (i) => `${R(i)}/2/move?before=1`),
  step('POST …/records/{recordId}/move (last)', 'POST', (i) => `${R(i)}/2/move`),
  step('POST …/records/{missing}/move', 'POST', (i) => `${R(i)}/999/move`),
  step('POST /api/v2/tables/{tableId}/links/{linkFieldId}/records (copy, paste)', 'POST', (i) => `${T(i)}/links/${i.tagsLink}/records`, { body: (i) => [cell(i, 'copy', '1'), cell(i, 'paste', '2')] }),
  step('POST …/links/{linkFieldId}/records (deleteAll)', 'POST', (i) => `${T(i)}/links/${i.tagsLink}/records`, { body: (i) => [cell(i, 'deleteAll', '2')] }),
  step('POST …/links/{linkFieldId}/records (deleteAll, missing record)', 'POST', (i) => `${T(i)}/links/${i.tagsLink}/records`, { body: (i) => [cell(i, 'deleteAll', '999')] }),
  step('POST /api/v2/tables/{tableId}/button/{fieldId} (a Number field)', 'POST', (i) => `${T(i)}/button/${i.qty}`, { body: () => ({ rowIds: ['1'] }) }),
  step('POST …/button/{fieldId} (no rows)', 'POST', (i) => `${T(i)}/button/${i.qty}`, { body: () => ({}) }),
  step('POST …/button/{missing}', 'POST', (i) => `${T(i)}/button/cmissing0000000`, { body: () => ({ rowIds: ['1'] }) }),
];

const hooksAndFiles: Step[] = [
  step('POST /api/v2/meta/tables/{tableId}/hooks', 'POST', (i) => `${M}/tables/${i.items}/hooks`, { body: () => hook('compare'), save: (b, ids) => { ids.hook = b.id; } }),
  step('GET /api/v2/meta/tables/{tableId}/hooks', 'GET', (i) => `${M}/tables/${i.items}/hooks`),
  step('PATCH /api/v2/meta/hooks/{hookId}', 'PATCH', (i) => `${M}/hooks/${i.hook}`, { body: () => hook('renamed') }),
  step('POST /api/v2/meta/hooks/{hookId}/filters', 'POST', (i) => `${M}/hooks/${i.hook}/filters`, { body: (i) => ({ fk_column_id: i.qty, comparison_op: 'gt', value: '1', logical_op: 'and' }) }),
  step('GET /api/v2/meta/hooks/{hookId}/filters', 'GET', (i) => `${M}/hooks/${i.hook}/filters`),
  step('GET /api/v2/meta/hooks/{hookId}/logs', 'GET', (i) => `${M}/hooks/${i.hook}/logs`),
  step('GET /api/v2/meta/tables/{tableId}/hooks/samplePayload/{event}/{operation}/{version}', 'GET', (i) => `${M}/tables/${i.items}/hooks/samplePayload/after/insert/v3`),
  step('POST /api/v2/meta/tables/{tableId}/hooks/test', 'POST', (i) => `${M}/tables/${i.items}/hooks/test`, { body: () => ({ hook: hook('test'), payload: { data: { Title: 'x' } } }) }),
  step('POST /api/v2/meta/hooks/{hookId}/trigger/{rowId}', 'POST', (i) => `${M}/hooks/${i.hook}/trigger/1`),
  step('DELETE /api/v2/meta/hooks/{hookId}', 'DELETE', (i) => `${M}/hooks/${i.hook}`),
  step('POST /api/v2/storage/upload?base_id=…', 'POST', (i) => `/api/v2/storage/upload?base_id=${i.base}`, {
    form: () => {
      const form = new FormData();
      form.append('file', new Blob([Buffer.from('hello v2')], { type: 'text/plain' }), 'hello.txt');
      return form;
    },
  }),
  step('POST /api/v2/storage/upload-by-url', 'POST', () => '/api/v2/storage/upload-by-url', { body: () => [{ url: 'data:text/plain;base64,aGk=', fileName: 'hi.txt' }] }),
  step('GET /api/v2/health', 'GET', () => '/api/v2/health'),
  step('GET /api/v2/version', 'GET', () => '/api/v2/version'),
  step('GET /api/v2/auth/user/me', 'GET', () => '/api/v2/auth/user/me'),
  step('POST /api/v2/auth/user/signin (wrong password)', 'POST', () => '/api/v2/auth/user/signin', { body: () => ({ email: 'nobody@example.com', password: 'Wrong-pass-1234' }) }),
  step('POST /api/v2/auth/password/forgot (unknown e-mail)', 'POST', () => '/api/v2/auth/password/forgot', { body: () => ({ email: 'nobody@example.com' }) }),
  step('POST /api/v2/auth/password/reset/{token} (bad token)', 'POST', () => '/api/v2/auth/password/reset/badtoken', { body: () => ({ password: 'New-pass-12345' }) }),
  step('POST /api/v2/auth/token/refresh (no cookie)', 'POST', () => '/api/v2/auth/token/refresh'),
  step('POST /api/v2/tables/{tableId}/records/{recordId}/comments', 'POST', (i) => `${R(i)}/1/comments`, { body: () => ({ comment: 'compare' }), save: (b, ids) => { ids.comment = b?.id; } }),
  step('GET /api/v2/tables/{tableId}/records/{recordId}/comments', 'GET', (i) => `${R(i)}/1/comments`),
  step('PATCH /api/v2/comments/{commentId}', 'PATCH', (i) => `/api/v2/comments/${i.comment}`, { body: () => ({ comment: 'edited' }) }),
  step('POST /api/v2/comments/{commentId}/resolve', 'POST', (i) => `/api/v2/comments/${i.comment}/resolve`),
  step('DELETE /api/v2/comments/{commentId}', 'DELETE', (i) => `/api/v2/comments/${i.comment}`),
  step('GET /api/v2/downloadAttachment/{modelId}/{columnId}/{rowId} (not an attachment field)', 'GET', (i) => `/api/v2/downloadAttachment/${i.items}/${i.qty}/1`),
  step('GET /api/v2/meta/integrations', 'GET', () => `${M}/integrations`),
  step('GET /api/v2/integrations', 'GET', () => '/api/v2/integrations'),
  step('POST /api/v2/meta/duplicate/{baseId}/table/{tableId}', 'POST', (i) => `${M}/duplicate/${i.base}/table/${i.tags}`, { body: () => ({ options: { excludeData: true } }) }),
  step('POST /api/v2/meta/duplicate/{baseId}', 'POST', (i) => `${M}/duplicate/${i.base}`, { body: () => ({ options: { excludeData: true } }) }),
  step('DELETE /api/v2/meta/filters/{filterId}', 'DELETE', (i) => `${M}/filters/${i.filter}`),
  step('DELETE /api/v2/meta/views/{viewId}', 'DELETE', (i) => `${M}/views/${i.grid}`),
  step('DELETE /api/v2/meta/bases/{baseId}', 'DELETE', (i) => `${M}/bases/${i.base}`),
];

/** Every request, in order: v2 meta and data, then v3 (scripts/compat/v3-compare.steps.ts), then hooks, storage and deletes. */
export const STEPS: Step[] = [...meta, ...data, ...more, ...V3_STEPS, ...hooksAndFiles];
