import knexFactory from 'knex';
import { Api } from 'nocodb-sdk';
import { TestApi, startTestStack, type TestStack } from '@tabula/testing';
import { allServices } from '../scripts/services';
import { describeVariant, sourceVariants } from './source-variants.helpers';

let stack: TestStack;
let token: string;
const cleanups: (() => Promise<void>)[] = [];

async function raw(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${stack.url}${path}`, {
    method, headers: { 'content-type': 'application/json', 'xc-auth': token }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

const variants = sourceVariants('rel', cleanups, ['default source', 'external PostgreSQL', 'external SQLite', 'external MariaDB']);

beforeAll(async () => {
  // External sources on this machine's databases: private addresses, allowed only by the flag.
  stack = await startTestStack(allServices, { SVC_ALLOW_LOCAL_SOURCES: 'true' });
  token = (await new TestApi(stack.url).signUp('e2e', 'relations-e2e@example.com')).token;
}, 120_000);
afterAll(async () => {
  await stack?.stop();
  for (const c of cleanups) await c().catch(() => undefined);
});

const titles = (list: { Name?: string; Title?: string }[]) => list.map((r) => r.Name ?? r.Title).sort();

for (const variant of variants) describeVariant(variant.name, `relations on ${variant.name}`, () => {
  const { name, body } = variant;
  let api: Api<unknown>;
  let baseId: string;
  let authors: string;
  let books: string;
  let tags: string;

  beforeAll(async () => {
    api = new Api({ baseURL: stack.url, headers: { 'xc-auth': token } });
    const extra = await body();
    if (!extra) throw new Error(`${name}: no backend for this variant`);
    baseId = (await raw('POST', '/api/v1/db/meta/projects', { title: `Rel ${name}`, ...extra })).body.id;
    const table = async (title: string) => (await api.dbTable.create(baseId, {
      title, table_name: title.toLowerCase(),
      columns: [{ column_name: 'id', title: 'Id', uidt: 'ID', pk: true, ai: true }, { column_name: 'name', title: 'Name', uidt: 'SingleLineText' }],
    } as never)).id as string;
    [authors, books, tags] = [await table('Authors'), await table('Books'), await table('Tags')];
    await api.dbTableRow.bulkCreate('noco', baseId, 'Authors', [{ Name: 'Ann' }, { Name: 'Bob' }]);
    await api.dbTableRow.bulkCreate('noco', baseId, 'Books', [{ Name: 'B1' }, { Name: 'B2' }, { Name: 'B3' }]);
    await api.dbTableRow.bulkCreate('noco', baseId, 'Tags', [{ Name: 'red' }, { Name: 'blue' }]);
  }, 120_000);

  it('creates hm, mm and oo links with their reverse columns and NocoDB colOptions', async () => {
    const hm = await api.dbTableColumn.create(authors, { title: 'Books', uidt: 'Links', parentId: authors, childId: books, type: 'hm' } as never) as any;
    expect(hm.colOptions).toMatchObject({ type: 'hm', fk_related_model_id: books });
    const mm = await api.dbTableColumn.create(books, { title: 'Tags', uidt: 'LinkToAnotherRecord', parentId: books, childId: tags, type: 'mm' } as never) as any;
    expect(mm.colOptions).toMatchObject({ type: 'mm', fk_related_model_id: tags });
    expect(mm.colOptions.fk_mm_model_id).toBeTruthy();
    const bookMeta = (await raw('GET', `/api/v1/db/meta/tables/${books}`)).body;
    const reverse = bookMeta.columns.find((c: any) => c.colOptions?.type === 'bt');
    expect(reverse.colOptions).toMatchObject({ fk_related_model_id: authors, fk_child_column_id: hm.colOptions.fk_child_column_id });
    const fk = bookMeta.columns.find((c: any) => c.id === hm.colOptions.fk_child_column_id);
    expect(fk).toMatchObject({ uidt: 'ForeignKey', system: true });
    const oo = await api.dbTableColumn.create(tags, { title: 'Owner', uidt: 'LinkToAnotherRecord', parentId: tags, childId: authors, type: 'oo' } as never) as any;
    expect(oo.colOptions).toMatchObject({ type: 'oo', fk_related_model_id: authors });
    const ownerKey = (await raw('GET', `/api/v1/db/meta/tables/${authors}`)).body.columns.find((c: any) => c.id === oo.colOptions.fk_child_column_id);
    expect(ownerKey).toMatchObject({ uidt: 'ForeignKey', unique: true });
    const bt = await api.dbTableColumn.create(tags, { title: 'Book', uidt: 'LinkToAnotherRecord', parentId: tags, childId: books, type: 'bt' } as never) as any;
    expect(bt.colOptions).toMatchObject({ type: 'bt', fk_related_model_id: books });
    const tagMeta = (await raw('GET', `/api/v1/db/meta/tables/${tags}`)).body;
    expect(tagMeta.columns.find((c: any) => c.id === bt.colOptions.fk_child_column_id)).toMatchObject({ uidt: 'ForeignKey', system: true });
    await api.dbTableRow.nestedAdd('noco', baseId, 'Tags', '1', 'bt', 'Book', '3');
    const tagPage = (await raw('GET', `/api/v1/db/data/noco/${baseId}/Tags?sort=Id`)).body.list;
    expect(tagPage.map((r: any) => r.Book)).toEqual([{ Id: 3, Name: 'B3' }, null]);
  });

  it('links, lists nested and excluded records, shows link values in lists, and unlinks', async () => {
    const events = async () => {
      const k = knexFactory({ client: 'pg', connection: stack.database.url });
      try {
        return (await k.withSchema('data').from('outbox').whereIn('key', [authors, books]).where('type', 'like', '%update%').select('key')).map((r) => r.key as string);
      } finally { await k.destroy(); }
    };
    const before = await events();
    expect(await api.dbTableRow.nestedAdd('noco', baseId, 'Authors', '1', 'hm', 'Books', '1')).toBeTruthy();
    await api.dbTableRow.nestedAdd('noco', baseId, 'Authors', '1', 'hm', 'Books', '2');
    // Each link is an update event of both records, through the outbox (so hooks of both tables fire).
    const after = await events();
    expect(after.filter((k) => k === authors).length - before.filter((k) => k === authors).length).toBe(2);
    expect(after.filter((k) => k === books).length - before.filter((k) => k === books).length).toBe(2);
    await api.dbTableRow.nestedAdd('noco', baseId, 'Books', '1', 'mm', 'Tags', '2');
    const nested = await api.dbTableRow.nestedList('noco', baseId, 'Authors', 1, 'hm', 'Books', {}) as any;
    expect(titles(nested.list)).toEqual(['B1', 'B2']);
    expect(nested.pageInfo.totalRows).toBe(2);
    const excluded = await api.dbTableRow.nestedChildrenExcludedList('noco', baseId, 'Authors', 1, 'hm', 'Books', {}) as any;
    expect(titles(excluded.list)).toEqual(['B3']);
    const mmList = await api.dbTableRow.nestedList('noco', baseId, 'Books', 1, 'mm', 'Tags', {}) as any;
    expect(titles(mmList.list)).toEqual(['blue']);
    const authorsPage = (await raw('GET', `/api/v1/db/data/noco/${baseId}/Authors?sort=-Books`)).body;
    expect(authorsPage.list.map((r: any) => [r.Name, r.Books])).toEqual([['Ann', 2], ['Bob', 0]]);
    const booksPage = (await raw('GET', `/api/v1/db/data/noco/${baseId}/Books?sort=Id`)).body;
    expect(booksPage.list[0].Tags).toEqual([{ Id: 2, Name: 'blue' }]);
    const byTagCount = (await raw('GET', `/api/v1/db/data/noco/${baseId}/Books?sort=${encodeURIComponent('~-Tags')}`)).body;
    expect(byTagCount.list[0].Name).toBe('B1');
    const fewestFirst = (await raw('GET', `/api/v1/db/data/noco/${baseId}/Books?sort=${encodeURIComponent('~+Tags')}`)).body;
    expect(fewestFirst.list.map((r: any) => r.Name)).toEqual(['B2', 'B3', 'B1']);
    const counted = (await raw('GET', `/api/v1/db/data/noco/${baseId}/Authors?where=${encodeURIComponent('(Books,gt,1)')}`)).body;
    expect(counted.list.map((r: any) => r.Name)).toEqual(['Ann']);
    await api.dbTableRow.nestedRemove('noco', baseId, 'Authors', '1', 'hm', 'Books', '2');
    const remaining = await api.dbTableRow.nestedList('noco', baseId, 'Authors', 1, 'hm', 'Books', {}) as any;
    expect(titles(remaining.list)).toEqual(['B1']);
  });

  it('links a table to itself', async () => {
    const mentees = await api.dbTableColumn.create(authors, { title: 'Mentees', uidt: 'Links', parentId: authors, childId: authors, type: 'hm' } as never) as any;
    await api.dbTableRow.nestedAdd('noco', baseId, 'Authors', '1', 'hm', 'Mentees', '2');
    const list = await api.dbTableRow.nestedList('noco', baseId, 'Authors', '1', 'hm', 'Mentees', {}) as any;
    expect(titles(list.list)).toEqual(['Bob']);
    const page = (await raw('GET', `/api/v1/db/data/noco/${baseId}/Authors?sort=Id&limit=2`)).body.list;
    // The child side of the has-many reads its parent as an object (NocoDB), the parent side its count.
    expect([page[0].Mentees, page[1].Mentees, page[0].Authors, page[1].Authors]).toEqual([1, 0, null, { Id: 1, Name: 'Ann' }]);
    expect((await raw('DELETE', `/api/v1/db/meta/columns/${mentees.id}`)).status).toBe(200);
    const after = (await raw('GET', `/api/v1/db/meta/tables/${authors}`)).body.columns.map((c: any) => c.title);
    expect(after.filter((t: string) => ['Mentees', 'Authors'].includes(t))).toEqual([]);
  });

  it('sets links from record create/update bodies in the same transaction', async () => {
    const created = await api.dbTableRow.create('noco', baseId, 'Authors', { Name: 'Cy', Books: [3, { Id: 2 }] }) as any;
    expect(created.Books).toBe(2);
    const updated = await api.dbTableRow.update('noco', baseId, 'Authors', created.Id, { Books: [3] }) as any;
    expect(updated.Books).toBe(1);
    const bad = await raw('POST', `/api/v1/db/data/noco/${baseId}/Authors`, { Name: 'Dee', Books: [999] });
    expect(bad.status).toBe(404);
    const none = (await raw('GET', `/api/v1/db/data/noco/${baseId}/Authors?where=${encodeURIComponent('(Name,eq,Dee)')}`)).body;
    expect(none.list).toEqual([]);
  });

  it('computes Lookup and Rollup columns (filterable, sortable, usable in formulas) and refuses bad ones', async () => {
    const authorsMeta = (await raw('GET', `/api/v1/db/meta/tables/${authors}`)).body;
    const booksMeta = (await raw('GET', `/api/v1/db/meta/tables/${books}`)).body;
    const link = authorsMeta.columns.find((c: any) => c.title === 'Books');
    const authorOfBook = booksMeta.columns.find((c: any) => c.colOptions?.type === 'bt');
    const pages = await raw('POST', `/api/v1/db/meta/tables/${books}/columns`, { title: 'Pages', uidt: 'Number' });
    for (const [id, n] of [[1, 100], [2, 200], [3, 300]]) await api.dbTableRow.update('noco', baseId, 'Books', id, { Pages: n });
    const nameOf = (meta: any) => meta.columns.find((c: any) => c.title === 'Name').id;
    const col = (table: string, b: unknown) => raw('POST', `/api/v1/db/meta/tables/${table}/columns`, b);
    expect((await col(authors, { title: 'Total', uidt: 'Rollup', fk_relation_column_id: link.id, fk_rollup_column_id: pages.body.id, rollup_function: 'sum' })).status).toBe(200);
    expect((await col(authors, { title: 'Titles', uidt: 'Lookup', colOptions: { fk_relation_column_id: link.id, fk_lookup_column_id: nameOf(booksMeta) } })).status).toBe(200);
    expect((await col(books, { title: 'Writer', uidt: 'Lookup', fk_relation_column_id: authorOfBook.id, fk_lookup_column_id: nameOf(authorsMeta) })).status).toBe(200);
    // a lookup of a column that is not the related table's display column
    expect((await col(authors, { title: 'PageCounts', uidt: 'Lookup', fk_relation_column_id: link.id, fk_lookup_column_id: pages.body.id })).status).toBe(200);
    expect((await col(authors, { title: 'Double', uidt: 'Formula', formula_raw: '{Total} * 2' })).status).toBe(200);
    const page = (await raw('GET', `/api/v1/db/data/noco/${baseId}/Authors?sort=Id`)).body.list;
    // (A sum over no linked records is 0, as NocoDB answers.)
    expect(page.map((r: any) => [r.Name, r.Total, r.Titles, r.Double])).toEqual([['Ann', 100, ['B1'], 200], ['Bob', 0, [], 0], ['Cy', 300, ['B3'], 600]]);
    expect(page.map((r: any) => [r.Name, r.PageCounts])).toEqual([['Ann', [100]], ['Bob', []], ['Cy', [300]]]);
    const big = (await raw('GET', `/api/v1/db/data/noco/${baseId}/Authors?where=${encodeURIComponent('(Total,gt,150)')}`)).body.list;
    expect(big.map((r: any) => r.Name)).toEqual(['Cy']);
    const byWriter = (await raw('GET', `/api/v1/db/data/noco/${baseId}/Books?sort=-Writer&where=${encodeURIComponent('(Writer,isnot,null)')}`)).body.list;
    expect(byWriter.map((r: any) => [r.Name, r.Writer])).toEqual([['B3', 'Cy'], ['B1', 'Ann']]);
    const bad = [
      { title: 'R1', uidt: 'Rollup', fk_relation_column_id: link.id, fk_rollup_column_id: nameOf(booksMeta), rollup_function: 'sum' },
      { title: 'R2', uidt: 'Rollup', fk_relation_column_id: link.id, fk_rollup_column_id: pages.body.id, rollup_function: 'median' },
      { title: 'R3', uidt: 'Lookup', fk_relation_column_id: nameOf(authorsMeta), fk_lookup_column_id: nameOf(booksMeta) },
    ];
    for (const b of bad) expect([b.title, (await col(authors, b)).status]).toEqual([b.title, 400]);
  });

  it('rolls up with every function; sums and averages over no linked records are 0 (NocoDB)', async () => {
    const table = async (title: string, extra: unknown[]) => (await api.dbTable.create(baseId, {
      title, table_name: title.toLowerCase(), columns: [{ column_name: 'id', title: 'Id', uidt: 'ID', pk: true, ai: true }, ...extra],
    } as never)).id as string;
    const orders = await table('Orders', [{ column_name: 'name', title: 'Name', uidt: 'SingleLineText' }]);
    const lines = await table('Lines', [{ column_name: 'amount', title: 'Amount', uidt: 'Number' }]);
    const link = await api.dbTableColumn.create(orders, { title: 'Lines', uidt: 'Links', parentId: orders, childId: lines, type: 'hm' } as never) as any;
    const linkId = (link.columns ?? []).find((c: any) => c.title === 'Lines')?.id ?? link.id;
    await api.dbTableRow.bulkCreate('noco', baseId, 'Lines', [{ Amount: 5 }, { Amount: 5 }, { Amount: 10 }, { Amount: null }]);
    await api.dbTableRow.create('noco', baseId, 'Orders', { Name: 'full', Lines: [1, 2, 3, 4] });
    await api.dbTableRow.create('noco', baseId, 'Orders', { Name: 'none' });
    const amount = (await raw('GET', `/api/v1/db/meta/tables/${lines}`)).body.columns.find((c: any) => c.title === 'Amount').id;
    const fns = ['sum', 'avg', 'min', 'max', 'count', 'countDistinct', 'sumDistinct', 'avgDistinct'];
    for (const fn of fns) {
      const made = await raw('POST', `/api/v1/db/meta/tables/${orders}/columns`, { title: `R_${fn}`, uidt: 'Rollup', fk_relation_column_id: linkId, fk_rollup_column_id: amount, rollup_function: fn });
      expect([fn, made.status]).toEqual([fn, 200]);
    }
    const rows = (await raw('GET', `/api/v1/db/data/noco/${baseId}/Orders?sort=Id`)).body.list;
    const values = rows.map((r: any) => fns.map((fn) => (r[`R_${fn}`] === null ? null : Number(r[`R_${fn}`]))));
    // NocoDB 0.301.3's answers (scripts/compat/depth-compare.ts): full 5, 5, 10, blank; none: no lines.
    expect(values[0].map((v: number) => Math.round(v * 1000) / 1000)).toEqual([20, 6.667, 5, 10, 3, 2, 15, 7.5]);
    expect(values[1]).toEqual([0, 0, null, null, 0, 0, 0, 0]);
    const zero = (await raw('GET', `/api/v1/db/data/noco/${baseId}/Orders?where=${encodeURIComponent('(R_sumDistinct,eq,0)')}`)).body.list;
    expect(zero.map((r: any) => r.Name)).toEqual(['none']);
  });

  it('refuses bad link input', async () => {
    const col = (b: unknown) => raw('POST', `/api/v1/db/meta/tables/${authors}/columns`, b);
    expect((await col({ title: 'X', uidt: 'Links', parentId: authors, childId: books, type: 'xx' })).status).toBe(400);
    const other = (await raw('POST', '/api/v1/db/meta/projects', { title: `Other ${name}` })).body.id;
    const foreign = (await api.dbTable.create(other, { title: 'F', table_name: 'f', columns: [{ column_name: 'id', title: 'Id', uidt: 'ID', pk: true, ai: true }] } as never)).id;
    const cross = await col({ title: 'X', uidt: 'Links', parentId: authors, childId: foreign, type: 'hm' });
    expect([cross.status, cross.body.msg]).toEqual([400, expect.stringMatching(/across bases/)]);
    const missing = await raw('POST', `/api/v1/db/data/noco/${baseId}/Authors/1/hm/Books/999`);
    expect(missing.status).toBe(404);
    const notLinked = await raw('DELETE', `/api/v1/db/data/noco/${baseId}/Authors/2/hm/Books/3`);
    expect(notLinked.status).toBe(400);
    const notes = (await api.dbTable.create(baseId, { title: 'Notes', table_name: 'notes', columns: [{ column_name: 'id', title: 'Id', uidt: 'ID', pk: true, ai: true }, { column_name: 'body', title: 'Body', uidt: 'SingleLineText' }] } as never)).id as string;
    await api.dbTableColumn.create(notes, { title: 'Author', uidt: 'LinkToAnotherRecord', parentId: notes, childId: authors, type: 'bt', rqd: true } as never);
    const orphan = await raw('POST', `/api/v1/db/data/noco/${baseId}/Notes`, { Body: 'x' });
    expect([orphan.status, orphan.body.error]).toEqual([422, 'ERR_REQUIRED_FIELD_MISSING']);
    const note = await raw('POST', `/api/v1/db/data/noco/${baseId}/Notes`, { Body: 'y', Author: { Id: 1 } });
    expect([note.status, note.body.Author]).toEqual([200, { Id: 1, Name: 'Ann' }]);
    expect((await raw('POST', `/api/v1/db/data/noco/${baseId}/Authors/1/hm/Nope/1`)).status).toBe(404);
    expect((await raw('GET', `/api/v1/db/data/noco/${baseId}/Authors/1/xx/Books`)).status).toBe(400);
    // Deleting a record leaves its former links empty (constraints; on SQLite the data service clears them).
    const temp = await api.dbTableRow.create('noco', baseId, 'Authors', { Name: 'Tmp', Books: [2] }) as any;
    await api.dbTableRow.delete('noco', baseId, 'Authors', temp.Id);
    const next = await api.dbTableRow.create('noco', baseId, 'Authors', { Name: 'Next' }) as any;
    expect([next.Books, (await api.dbTableRow.read('noco', baseId, 'Books', '2') as any).Authors]).toEqual([0, null]);
  });

  it('refuses the rest of the bad relation input, writing nothing', async () => {
    const booksMeta = (await raw('GET', `/api/v1/db/meta/tables/${books}`)).body;
    const tagsMeta = (await raw('GET', `/api/v1/db/meta/tables/${tags}`)).body;
    const tagsLink = booksMeta.columns.find((c: any) => c.title === 'Tags');
    const tagName = tagsMeta.columns.find((c: any) => c.title === 'Name');
    const col = (b: unknown) => raw('POST', `/api/v1/db/meta/tables/${authors}/columns`, b);
    // A Lookup/Rollup through a link column of another table.
    const lookup = await col({ title: 'L1', uidt: 'Lookup', fk_relation_column_id: tagsLink.id, fk_lookup_column_id: tagName.id });
    expect([lookup.status, lookup.body.error]).toEqual([400, expect.any(String)]);
    const rollup = await col({ title: 'R4', uidt: 'Rollup', fk_relation_column_id: tagsLink.id, fk_rollup_column_id: tagName.id, rollup_function: 'count' });
    expect(rollup.status).toBe(400);
    const unknownFn = await col({ title: 'R5', uidt: 'Rollup', fk_relation_column_id: (await raw('GET', `/api/v1/db/meta/tables/${authors}`)).body.columns.find((c: any) => c.title === 'Books').id, fk_rollup_column_id: 'cnope', rollup_function: 'sum' });
    expect(unknownFn.status).toBe(400);
    expect((await raw('GET', `/api/v1/db/meta/tables/${authors}`)).body.columns.filter((c: any) => ['L1', 'R4', 'R5'].includes(c.title))).toEqual([]);
    // Linking from or to a record that does not exist: 404, nothing written.
    const before = titles((await api.dbTableRow.nestedList('noco', baseId, 'Books', 1, 'mm', 'Tags', {}) as any).list);
    expect((await raw('POST', `/api/v1/db/data/noco/${baseId}/Books/1/mm/Tags/999`)).status).toBe(404);
    expect((await raw('POST', `/api/v1/db/data/noco/${baseId}/Books/999/mm/Tags/1`)).status).toBe(404);
    expect((await raw('POST', `/api/v1/db/data/noco/${baseId}/Authors/999/hm/Books/1`)).status).toBe(404);
    expect(titles((await api.dbTableRow.nestedList('noco', baseId, 'Books', 1, 'mm', 'Tags', {}) as any).list)).toEqual(before);
    expect((await raw('PATCH', `/api/v1/db/data/noco/${baseId}/Books/1`, { Tags: [1, 999] })).status).toBe(404);
    expect(titles((await api.dbTableRow.nestedList('noco', baseId, 'Books', 1, 'mm', 'Tags', {}) as any).list)).toEqual(before);
    // Unlinking a pair that is not linked (mm and bt), or with a record that does not exist.
    const notLinked = await raw('DELETE', `/api/v1/db/data/noco/${baseId}/Books/2/mm/Tags/1`);
    expect([notLinked.status, notLinked.body.error]).toEqual([400, expect.any(String)]);
    expect((await raw('DELETE', `/api/v1/db/data/noco/${baseId}/Books/2/mm/Tags/999`)).status).toBeGreaterThanOrEqual(400);
    expect((await raw('DELETE', `/api/v1/db/data/noco/${baseId}/Books/2/mm/Tags/999`)).status).toBeLessThan(500);
    // A required bt link missing from one record of a bulk insert: refused, none of the batch written.
    const notesBefore = (await raw('GET', `/api/v1/db/data/noco/${baseId}/Notes`)).body.pageInfo.totalRows;
    const bulk = await raw('POST', `/api/v1/db/data/bulk/noco/${baseId}/Notes`, [{ Body: 'ok', Author: { Id: 1 } }, { Body: 'orphan' }]);
    expect([bulk.status, bulk.body.error]).toEqual([422, 'ERR_REQUIRED_FIELD_MISSING']);
    expect((await raw('GET', `/api/v1/db/data/noco/${baseId}/Notes`)).body.pageInfo.totalRows).toBe(notesBefore);
  });

  it('renames a link column keeping its relation, refuses type changes, duplicates a linked table without its relations', async () => {
    const meta = (await raw('GET', `/api/v1/db/meta/tables/${authors}`)).body;
    const link = meta.columns.find((c: any) => c.title === 'Books');
    const renamed = await raw('PATCH', `/api/v1/db/meta/columns/${link.id}`, { title: 'Works' });
    expect([renamed.status, renamed.body.colOptions]).toEqual([200, link.colOptions]);
    expect((await raw('PATCH', `/api/v1/db/meta/columns/${link.id}`, { title: 'Books' })).status).toBe(200);
    expect((await raw('PATCH', `/api/v1/db/meta/columns/${link.id}`, { uidt: 'SingleLineText' })).status).toBe(400);
    const copy = await raw('POST', `/api/v1/db/meta/duplicate/${baseId}/table/${books}`, {});
    expect(copy.status).toBeLessThan(300);
  });

  it('deleting a link column drops its reverse and foreign key; deleting a linked table drops its links', async () => {
    const meta = (await raw('GET', `/api/v1/db/meta/tables/${authors}`)).body;
    const link = meta.columns.find((c: any) => c.title === 'Books');
    expect((await raw('DELETE', `/api/v1/db/meta/columns/${link.id}`)).status).toBe(200);
    const bookMeta = (await raw('GET', `/api/v1/db/meta/tables/${books}`)).body;
    expect(bookMeta.columns.filter((c: any) => c.uidt === 'ForeignKey' || c.colOptions?.type === 'bt')).toEqual([]);
    expect((await raw('DELETE', `/api/v1/db/meta/tables/${tags}`)).status).toBe(200);
    const after = (await raw('GET', `/api/v1/db/meta/tables/${books}`)).body;
    expect(after.columns.filter((c: any) => ['Links', 'LinkToAnotherRecord'].includes(c.uidt))).toEqual([]);
    expect((await raw('GET', `/api/v1/db/data/noco/${baseId}/Books`)).status).toBe(200);
  });
});
