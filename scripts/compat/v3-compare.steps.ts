import type { Ids, Step } from './v2-compare.steps';

/**
 * NocoDB's v3 requests of scripts/compat/v2-compare.ts (run after the v2
 * meta and data steps, on the same base, tables and link field): v3 meta
 * reads, records, count and links, v3 meta writes (on a base of their own),
 * with the error cases clients meet, and
 * the v2 aggregate and v1 group-by reads nocodb-sdk exposes.
 * Records made here are named by the ids each side answered.
 */
const M3 = '/api/v3/meta';
const D = (ids: Ids, path = '') => `/api/v3/data/${ids.base}/${ids.items}${path}`;
const L = (ids: Ids, row: string) => D(ids, `/links/${ids.tagsLink}/${row}`);
const q = (s: unknown) => encodeURIComponent(JSON.stringify(s));
const step = (name: string, method: Step['method'], path: Step['path'], rest: Partial<Step> = {}): Step => ({ name, method, path, ...rest });

export const V3_STEPS: Step[] = [
  step('GET /api/v3/meta/workspaces/nc/bases', 'GET', () => `${M3}/workspaces/nc/bases`),
  step('GET /api/v3/meta/workspaces/{other id}/bases', 'GET', () => `${M3}/workspaces/wanything/bases`),
  step('GET /api/v3/meta/bases/{baseId}', 'GET', (i) => `${M3}/bases/${i.base}`),
  step('GET /api/v3/meta/bases/{baseId}/tables', 'GET', (i) => `${M3}/bases/${i.base}/tables`),
  step('GET /api/v3/meta/bases/{baseId}/tables/{tableId}', 'GET', (i) => `${M3}/bases/${i.base}/tables/${i.items}`),
  step('GET /api/v3/meta/bases/{baseId}/tables/{tableId}/fields/{fieldId}', 'GET', (i) => `${M3}/bases/${i.base}/tables/${i.items}/fields/${i.tagsLink}`),
  step('GET /api/v3/meta/bases/{baseId}/fields/{fieldId}', 'GET', (i) => `${M3}/bases/${i.base}/fields/${i.tagsLink}`),
  step('GET /api/v3/meta/bases/{missing}/tables', 'GET', () => `${M3}/bases/pmissing0000000/tables`),
  step('GET /api/v3/meta/bases/{baseId}/tables/{missing}', 'GET', (i) => `${M3}/bases/${i.base}/tables/mmissing0000000`),
  step('GET /api/v3/meta/bases/{baseId}/fields/{missing}', 'GET', (i) => `${M3}/bases/${i.base}/fields/cmissing0000000`),
  step('POST /api/v3/data/{baseId}/{tableId}/records [{fields}×3]', 'POST', (i) => D(i, '/records'), {
    body: () => [{ fields: { Title: 'v3 a', Qty: 31 } }, { fields: { Title: 'v3 b', Qty: 32 } }, { fields: { Title: 'v3 c' } }],
    save: (b, ids) => { [ids.r1, ids.r2, ids.r3] = (b?.records ?? []).map((r: { id: unknown }) => String(r.id)); },
  }),
  step('POST …/records {fields} (one object)', 'POST', (i) => D(i, '/records'), { body: () => ({ fields: { Title: 'v3 d', Qty: 34 } }), save: (b, ids) => { ids.r4 = String(b?.records?.[0]?.id); } }),
  step('GET …/records?pageSize=2', 'GET', (i) => D(i, '/records?pageSize=2')),
  step('GET …/records?pageSize=2&page=2', 'GET', (i) => D(i, '/records?pageSize=2&page=2')),
  step('GET …/records?limit=2&offset=1', 'GET', (i) => D(i, '/records?limit=2&offset=1')),
  step('GET …/records?where&sort=[json]&fields', 'GET', (i) => D(i, `/records?fields=Title&sort=${q([{ field: 'Qty', direction: 'desc' }])}&where=${encodeURIComponent('(Qty,gt,30)')}`)),
  step('GET …/records?sort={json object}', 'GET', (i) => D(i, `/records?fields=Qty&sort=${q({ field: 'Qty', direction: 'desc' })}`)),
  step('GET …/records?sort=-Qty (not JSON)', 'GET', (i) => D(i, '/records?sort=-Qty')),
  step('GET …/records/{recordId}', 'GET', (i) => D(i, `/records/${i.r1}`)),
  step('GET …/records/{recordId}?fields=Title', 'GET', (i) => D(i, `/records/${i.r1}?fields=Title`)),
  step('GET …/records/{missing}', 'GET', (i) => D(i, '/records/999999')),
  step('GET /api/v3/data/{baseId}/{tableId}/count', 'GET', (i) => D(i, '/count')),
  step('GET …/count?where', 'GET', (i) => D(i, `/count?where=${encodeURIComponent('(Qty,gt,30)')}`)),
  step('PATCH …/records [{id, fields}]', 'PATCH', (i) => D(i, '/records'), { body: (i) => [{ id: Number(i.r1), fields: { Title: 'v3 a2' } }, { id: Number(i.r2), fields: { Qty: 320 } }] }),
  step('PATCH …/records {id, fields} (one object)', 'PATCH', (i) => D(i, '/records'), { body: (i) => ({ id: Number(i.r3), fields: { Title: 'v3 c2' } }) }),
  step('PATCH …/records [{missing id}]', 'PATCH', (i) => D(i, '/records'), { body: () => [{ id: 999999, fields: { Title: 'never' } }] }),
  step('PATCH …/records [{fields}] (no id)', 'PATCH', (i) => D(i, '/records'), { body: () => [{ fields: { Title: 'x' } }] }),
  step('POST …/records [{Title}] (no fields)', 'POST', (i) => D(i, '/records'), { body: () => [{ Title: 'flat' }] }),
  step('POST …/records []', 'POST', (i) => D(i, '/records'), { body: () => [] }),
  step('DELETE …/records [{id}]', 'DELETE', (i) => D(i, '/records'), { body: (i) => [{ id: Number(i.r4) }] }),
  step('DELETE …/records [{missing id}]', 'DELETE', (i) => D(i, '/records'), { body: () => [{ id: 999999 }] }),
  step('POST /api/v3/data/{baseId}/{tags}/records', 'POST', (i) => `/api/v3/data/${i.base}/${i.tags}/records`, {
    body: () => [{ fields: { Name: 'v3 t1' } }, { fields: { Name: 'v3 t2' } }],
    save: (b, ids) => { [ids.t1, ids.t2] = (b?.records ?? []).map((r: { id: unknown }) => String(r.id)); },
  }),
  step('POST /api/v3/data/{baseId}/{tableId}/links/{linkFieldId}/{recordId}', 'POST', (i) => L(i, i.r1), { body: (i) => [{ id: Number(i.t1) }, { id: Number(i.t2) }] }),
  step('POST …/links/… [{missing id}]', 'POST', (i) => L(i, i.r1), { body: () => [{ id: 999999 }] }),
  step('GET …/links/{linkFieldId}/{recordId}', 'GET', (i) => L(i, i.r1)),
  step('GET …/links/…?pageSize=1', 'GET', (i) => L(i, `${i.r1}?pageSize=1`)),
  step('GET …/links/{linkFieldId}/{missing record}', 'GET', (i) => L(i, '999999')),
  step('GET …/links/{missing field}/{recordId}', 'GET', (i) => D(i, `/links/cmissing0000000/${i.r1}`)),
  step('DELETE …/links/{linkFieldId}/{recordId}', 'DELETE', (i) => L(i, i.r1), { body: (i) => [{ id: Number(i.t2) }] }),
  step('DELETE …/links/… (not linked)', 'DELETE', (i) => L(i, i.r1), { body: (i) => [{ id: Number(i.t2) }] }),
  step('GET /api/v2/tables/{tableId}/aggregate?aggregation=[sum, count_filled]', 'GET', (i) => `/api/v2/tables/${i.items}/aggregate?aggregation=${q([{ field: i.qty, type: 'sum' }, { field: i.title, type: 'count_filled' }])}`),
  step('GET /api/v2/tables/{tableId}/aggregate (unknown field)', 'GET', (i) => `/api/v2/tables/${i.items}/aggregate?aggregation=${q([{ field: 'cmissing', type: 'sum' }])}`),
  step('GET /api/v1/db/data/noco/{baseId}/{tableId}/groupby?column_name=Title', 'GET', (i) => `/api/v1/db/data/noco/${i.base}/${i.items}/groupby?column_name=Title&sort=-Title`),
  step('GET …/groupby/count?column_name=Title', 'GET', (i) => `/api/v1/db/data/noco/${i.base}/${i.items}/groupby/count?column_name=Title`),
  step('GET …/groupby (no column)', 'GET', (i) => `/api/v1/db/data/noco/${i.base}/${i.items}/groupby`),
  // Meta writes: a base of its own, a table with fields, fields added, changed and dropped, then both gone.
  step('POST /api/v3/meta/workspaces/nc/bases', 'POST', () => `${M3}/workspaces/nc/bases`, {
    body: () => ({ title: `V3 ${Date.now()}`, meta: { icon_color: '#36BFFF' } }), save: (b, ids) => { ids.base3 = b?.id; },
  }),
  step('POST /api/v3/meta/workspaces/nc/bases {} (no title)', 'POST', () => `${M3}/workspaces/nc/bases`, { body: () => ({}) }),
  step('PATCH /api/v3/meta/bases/{baseId}', 'PATCH', (i) => `${M3}/bases/${i.base3}`, { body: () => ({ title: `V3 renamed ${Date.now()}` }) }),
  step('PATCH /api/v3/meta/bases/{missing}', 'PATCH', () => `${M3}/bases/pmissing0000000`, { body: () => ({ title: 'x' }) }),
  step('POST /api/v3/meta/bases/{baseId}/tables (with fields)', 'POST', (i) => `${M3}/bases/${i.base3}/tables`, {
    body: () => ({
      title: 'Things', description: 'v3 table', fields: [{ title: 'Title', type: 'SingleLineText' }, { title: 'Qty', type: 'Number' },
        { title: 'Status', type: 'SingleSelect', options: { choices: [{ title: 'open', color: '#36BFFF' }, { title: 'done' }] } }],
    }),
    save: (b, ids) => { ids.things = b?.id; ids.thingsQty = b?.fields?.find((f: { title: string }) => f.title === 'Qty')?.id; },
  }),
  step('POST /api/v3/meta/bases/{baseId}/tables (Others)', 'POST', (i) => `${M3}/bases/${i.base3}/tables`, { body: () => ({ title: 'Others' }), save: (b, ids) => { ids.others = b?.id; } }),
  step('POST …/tables (duplicate title)', 'POST', (i) => `${M3}/bases/${i.base3}/tables`, { body: () => ({ title: 'Things' }) }),
  step('POST …/tables {} (no title)', 'POST', (i) => `${M3}/bases/${i.base3}/tables`, { body: () => ({}) }),
  step('PATCH /api/v3/meta/bases/{baseId}/tables/{tableId} {title}', 'PATCH', (i) => `${M3}/bases/${i.base3}/tables/${i.things}`, { body: () => ({ title: 'Things2' }) }),
  step('PATCH …/tables/{tableId} {description}', 'PATCH', (i) => `${M3}/bases/${i.base3}/tables/${i.things}`, { body: () => ({ description: 'changed' }) }),
  step('PATCH …/tables/{tableId} {display_field_id}', 'PATCH', (i) => `${M3}/bases/${i.base3}/tables/${i.things}`, { body: (i) => ({ display_field_id: i.thingsQty }) }),
  step('PATCH …/tables/{tableId} {title, description}', 'PATCH', (i) => `${M3}/bases/${i.base3}/tables/${i.things}`, { body: () => ({ title: 'Things3', description: 'both' }) }),
  step('PATCH …/tables/{tableId} {}', 'PATCH', (i) => `${M3}/bases/${i.base3}/tables/${i.things}`, { body: () => ({}) }),
  step('PATCH …/tables/{missing}', 'PATCH', (i) => `${M3}/bases/${i.base3}/tables/mmissing0000000`, { body: () => ({ title: 'x' }) }),
  step('POST /api/v3/meta/bases/{baseId}/tables/{tableId}/fields', 'POST', (i) => `${M3}/bases/${i.base3}/tables/${i.things}/fields`, {
    body: () => ({ title: 'Note', type: 'LongText', description: 'a note', default_value: 'n/a' }), save: (b, ids) => { ids.note3 = b?.id; },
  }),
  step('POST …/fields (Links mm)', 'POST', (i) => `${M3}/bases/${i.base3}/tables/${i.things}/fields`, {
    body: (i) => ({ title: 'Others', type: 'Links', options: { relation_type: 'mm', related_table_id: i.others } }), save: (b, ids) => { ids.othersLink = b?.id; },
  }),
  step('POST …/fields (MultiSelect)', 'POST', (i) => `${M3}/bases/${i.base3}/tables/${i.things}/fields`, { body: () => ({ title: 'Colors', type: 'MultiSelect', options: { choices: [{ title: 'red' }, { title: 'blue' }] } }) }),
  step('POST …/fields (duplicate title)', 'POST', (i) => `${M3}/bases/${i.base3}/tables/${i.things}/fields`, { body: () => ({ title: 'Note', type: 'LongText' }) }),
  step('POST …/fields (unknown type)', 'POST', (i) => `${M3}/bases/${i.base3}/tables/${i.things}/fields`, { body: () => ({ title: 'Bad', type: 'NoSuchType' }) }),
  step('POST …/tables/{missing}/fields', 'POST', (i) => `${M3}/bases/${i.base3}/tables/mmissing0000000/fields`, { body: () => ({ title: 'Z', type: 'Number' }) }),
  step('PATCH /api/v3/meta/bases/{baseId}/fields/{fieldId}', 'PATCH', (i) => `${M3}/bases/${i.base3}/fields/${i.note3}`, { body: () => ({ title: 'Note2' }) }),
  step('PATCH …/tables/{tableId}/fields/{fieldId} (type change)', 'PATCH', (i) => `${M3}/bases/${i.base3}/tables/${i.things}/fields/${i.note3}`, { body: () => ({ title: 'Note3', type: 'SingleLineText' }) }),
  step('PATCH …/fields/{fieldId} {} (no title)', 'PATCH', (i) => `${M3}/bases/${i.base3}/fields/${i.note3}`, { body: () => ({}) }),
  step('PATCH …/fields/{missing}', 'PATCH', (i) => `${M3}/bases/${i.base3}/fields/cmissing0000000`, { body: () => ({ title: 'x' }) }),
  step('GET …/tables/{tableId} (after the writes)', 'GET', (i) => `${M3}/bases/${i.base3}/tables/${i.things}`),
  step('DELETE /api/v3/meta/bases/{baseId}/fields/{fieldId}', 'DELETE', (i) => `${M3}/bases/${i.base3}/fields/${i.note3}`),
  step('DELETE …/tables/{tableId}/fields/{fieldId} (link)', 'DELETE', (i) => `${M3}/bases/${i.base3}/tables/${i.things}/fields/${i.othersLink}`),
  step('DELETE …/fields/{missing}', 'DELETE', (i) => `${M3}/bases/${i.base3}/fields/cmissing0000000`),
  step('DELETE /api/v3/meta/bases/{baseId}/tables/{tableId}', 'DELETE', (i) => `${M3}/bases/${i.base3}/tables/${i.others}`),
  step('DELETE …/tables/{missing}', 'DELETE', (i) => `${M3}/bases/${i.base3}/tables/mmissing0000000`),
  step('DELETE /api/v3/meta/bases/{baseId}', 'DELETE', (i) => `${M3}/bases/${i.base3}`),
  step('DELETE /api/v3/meta/bases/{baseId} (again)', 'DELETE', (i) => `${M3}/bases/${i.base3}`),
  step('GET /api/v3/data/{missing base}/{tableId}/records', 'GET', (i) => `/api/v3/data/pmissing0000000/${i.items}/records`),
  step('GET /api/v3/data/{baseId}/{missing table}/records', 'GET', (i) => `/api/v3/data/${i.base}/mmissing0000000/records`),
];
