import { describeVariant, variantSuite } from './source-variants.helpers';

/**
 * Lookups of lookups and rollups of rollups (NocoDB reads any depth the schema
 * allows), read, filtered and sorted; has-many lookups list their values in
 * the related rows' primary-key order. Countries have many Authors, Authors
 * have many Books. On the default PostgreSQL source, an external SQLite file
 * and an external MariaDB database.
 */
const suite = variantSuite('depth', 'relations-depth@example.com');
const { variants, raw } = suite;

for (const variant of variants) describeVariant(variant.name, `lookups and rollups of any depth on ${variant.name}`, () => {
  const t: Record<string, string> = {};
  const cols = async (table: string) => (await raw('GET', `/api/v2/meta/tables/${t[table]}`)).body.columns as { id: string; title: string; uidt: string; colOptions?: any }[];
  const colId = async (table: string, title: string) => (await cols(table)).find((c) => c.title === title)!.id;
  const add = async (table: string, body: Record<string, unknown>) => raw('POST', `/api/v2/meta/tables/${t[table]}/columns`, body);
  const read = async (table: string, query = '') => (await raw('GET', `/api/v2/tables/${t[table]}/records?${query}`));

  beforeAll(async () => {
    const extra = await variant.body();
    if (!extra) throw new Error(`${variant.name}: no backend for this variant`);
    const base = (await raw('POST', '/api/v1/db/meta/projects', { title: `Depth ${variant.name}`, ...extra })).body.id;
    for (const [title, more] of [['Countries', []], ['Authors', []], ['Books', [{ column_name: 'pages', title: 'Pages', uidt: 'Number' }]]] as const) {
      t[title] = (await raw('POST', `/api/v2/meta/bases/${base}/tables`, { title, table_name: title.toLowerCase(), columns: [
        { column_name: 'id', title: 'Id', uidt: 'ID', pk: true, ai: true }, { column_name: 'name', title: 'Name', uidt: 'SingleLineText' }, ...more,
      ] })).body.id;
    }
    expect((await add('Countries', { title: 'Authors', uidt: 'Links', parentId: t.Countries, childId: t.Authors, type: 'hm' })).status).toBe(200);
    expect((await add('Authors', { title: 'Books', uidt: 'Links', parentId: t.Authors, childId: t.Books, type: 'hm' })).status).toBe(200);
    await raw('POST', `/api/v2/tables/${t.Countries}/records`, [{ Name: 'PT' }, { Name: 'NO' }, { Name: 'XX' }]);
    await raw('POST', `/api/v2/tables/${t.Authors}/records`, [{ Name: 'Ann' }, { Name: 'Bob' }, { Name: 'Cid' }]);
    await raw('POST', `/api/v2/tables/${t.Books}/records`, [{ Name: 'b1', Pages: 100 }, { Name: 'b2', Pages: 50 }, { Name: 'b3', Pages: 50 }, { Name: 'b4', Pages: 7 }]);
    const link = async (table: string, column: string, row: number, ids: number[]) =>
      expect((await raw('POST', `/api/v2/tables/${t[table]}/links/${await colId(table, column)}/records/${row}`, ids.map((Id) => ({ Id })))).status).toBeLessThan(300);
    await link('Countries', 'Authors', 1, [2, 1]); // PT: Ann, Bob
    await link('Countries', 'Authors', 2, [3]); // NO: Cid
    await link('Authors', 'Books', 1, [3, 1]); // Ann: b1, b3
    await link('Authors', 'Books', 2, [2]); // Bob: b2
    await link('Authors', 'Books', 3, [4]); // Cid: b4
    const authorCountry = (await cols('Authors')).find((c) => c.colOptions?.type === 'bt')!.id;
    const bookAuthor = (await cols('Books')).find((c) => c.colOptions?.type === 'bt')!.id;
    const checks: [string, Record<string, unknown>][] = [
      ['Authors', { title: 'Country', uidt: 'Lookup', fk_relation_column_id: authorCountry, fk_lookup_column_id: await colId('Countries', 'Name') }],
      ['Authors', { title: 'Pages', uidt: 'Rollup', fk_relation_column_id: await colId('Authors', 'Books'), fk_rollup_column_id: await colId('Books', 'Pages'), rollup_function: 'sum' }],
      ['Authors', { title: 'Titles', uidt: 'Lookup', fk_relation_column_id: await colId('Authors', 'Books'), fk_lookup_column_id: await colId('Books', 'Name') }],
    ];
    for (const [table, body] of checks) expect((await add(table, body)).status).toBe(200);
    const more: [string, Record<string, unknown>][] = [
      // A lookup of a lookup (bt → bt), a rollup of a rollup, a lookup of a has-many lookup (a list of lists, flattened), a rollup of link counts.
      ['Books', { title: 'Country', uidt: 'Lookup', fk_relation_column_id: bookAuthor, fk_lookup_column_id: await colId('Authors', 'Country') }],
      ['Countries', { title: 'Pages', uidt: 'Rollup', fk_relation_column_id: await colId('Countries', 'Authors'), fk_rollup_column_id: await colId('Authors', 'Pages'), rollup_function: 'sum' }],
      ['Countries', { title: 'MaxPages', uidt: 'Rollup', fk_relation_column_id: await colId('Countries', 'Authors'), fk_rollup_column_id: await colId('Authors', 'Pages'), rollup_function: 'max' }],
      ['Countries', { title: 'Titles', uidt: 'Lookup', fk_relation_column_id: await colId('Countries', 'Authors'), fk_lookup_column_id: await colId('Authors', 'Titles') }],
      ['Countries', { title: 'Books', uidt: 'Rollup', fk_relation_column_id: await colId('Countries', 'Authors'), fk_rollup_column_id: await colId('Authors', 'Books'), rollup_function: 'sum' }],
    ];
    for (const [table, body] of more) expect([body.title, (await add(table, body)).status]).toEqual([body.title, 200]);
    // A second lookup over the same lookup of a lookup.
    expect((await add('Books', { title: 'CountryPages', uidt: 'Lookup', fk_relation_column_id: bookAuthor, fk_lookup_column_id: await colId('Authors', 'Country') })).status).toBe(200);
  }, 120_000);

  it('reads lookups of lookups and rollups of rollups; sum over no links is 0; has-many lists in primary-key order', async () => {
    const countries = (await read('Countries', 'sort=Id')).body.list;
    expect(countries.map((r: any) => [r.Name, r.Pages, r.MaxPages, r.Books, r.Titles])).toEqual([
      ['PT', 200, 150, 3, ['b1', 'b3', 'b2']], ['NO', 7, 7, 1, ['b4']], ['XX', 0, null, 0, []],
    ]);
    const books = (await read('Books', 'sort=Id')).body.list;
    expect(books.map((r: any) => [r.Name, r.Country, r.CountryPages])).toEqual([['b1', 'PT', 'PT'], ['b2', 'PT', 'PT'], ['b3', 'PT', 'PT'], ['b4', 'NO', 'NO']]);
    const authors = (await read('Authors', 'sort=Id')).body.list;
    expect(authors.map((r: any) => [r.Name, r.Titles])).toEqual([['Ann', ['b1', 'b3']], ['Bob', ['b2']], ['Cid', ['b4']]]);
  });

  it('filters and sorts by a lookup of a lookup, a rollup of a rollup, a link count and a formula over them; filters a has-many lookup', async () => {
    expect((await add('Countries', { title: 'Double', uidt: 'Formula', formula_raw: '{Pages} * 2' })).status).toBe(200);
    const names = async (q: string) => { const r = await read('Countries', q); expect(r.status).toBe(200); return r.body.list.map((x: any) => x.Name); };
    expect(await names(`where=${encodeURIComponent('(Pages,gt,10)')}&sort=Id`)).toEqual(['PT']);
    expect(await names('sort=-Pages')).toEqual(['PT', 'NO', 'XX']);
    expect(await names(`where=${encodeURIComponent('(Double,eq,14)')}`)).toEqual(['NO']);
    expect(await names(`where=${encodeURIComponent('(Authors,gte,1)')}&sort=-Authors,Id`)).toEqual(['PT', 'NO']);
    // A has-many lookup (a list): a condition holds when some value meets it; neq / nlike / blank when none does.
    const authors = async (w: string) => { const r = await read('Authors', `sort=Id&where=${encodeURIComponent(w)}`); expect([w, r.status]).toEqual([w, 200]); return r.body.list.map((x: any) => x.Name); };
    expect(await authors('(Titles,eq,b3)')).toEqual(['Ann']);
    expect(await authors('(Titles,neq,b3)')).toEqual(['Bob', 'Cid']);
    expect(await authors('(Titles,like,b%)')).toEqual(['Ann', 'Bob', 'Cid']);
    expect(await authors('(Titles,in,b2,b4)')).toEqual(['Bob', 'Cid']);
    expect(await authors('(Titles,blank)')).toEqual([]);
    const books = async (q: string) => (await read('Books', q)).body.list.map((x: any) => x.Name);
    expect(await books(`where=${encodeURIComponent('(Country,eq,NO)')}`)).toEqual(['b4']);
    expect(await books('sort=Country,-Id')).toEqual(['b4', 'b3', 'b2', 'b1']);
  });

  it('sorts has-many and many-to-many lookups (and lookups of them) as NocoDB does: by the text of their values (a JSON array; joined by ___ on SQLite), none first', async () => {
    const order = async (table: string, q: string) => { const r = await read(table, q); expect([q, r.status]).toEqual([q, 200]); return r.body.list.map((x: any) => x.Name); };
    // Ann's titles are [b1, b3], Bob's [b2], Cid's [b4]; their pages [100, 50], [50] and [7] compare as text (as on NocoDB).
    expect(await order('Authors', 'sort=Titles')).toEqual(['Ann', 'Bob', 'Cid']);
    expect(await order('Authors', 'sort=-Titles')).toEqual(['Cid', 'Bob', 'Ann']);
    expect((await add('Authors', { title: 'PageList', uidt: 'Lookup', fk_relation_column_id: await colId('Authors', 'Books'), fk_lookup_column_id: await colId('Books', 'Pages') })).status).toBe(200);
    expect(await order('Authors', 'sort=PageList')).toEqual(['Ann', 'Bob', 'Cid']);
    expect(await order('Authors', `sort=-PageList&where=${encodeURIComponent('(PageList,gt,60)')}`)).toEqual(['Ann']);
    // Countries' author names: PT [Ann, Bob], NO [Cid], XX none (NULL: first ascending, last descending).
    expect((await add('Countries', { title: 'Names', uidt: 'Lookup', fk_relation_column_id: await colId('Countries', 'Authors'), fk_lookup_column_id: await colId('Authors', 'Name') })).status).toBe(200);
    expect(await order('Countries', 'sort=Names')).toEqual(['XX', 'PT', 'NO']);
    expect(await order('Countries', 'sort=-Names')).toEqual(['NO', 'PT', 'XX']);
    // A many-to-many lookup, listed and sorted in the related rows' primary-key order: PT [b2, b4], NO [b1], XX none.
    expect((await add('Countries', { title: 'Sold', uidt: 'Links', parentId: t.Countries, childId: t.Books, type: 'mm' })).status).toBe(200);
    for (const [row, ids] of [[1, [4, 2]], [2, [1]]] as const) {
      expect((await raw('POST', `/api/v2/tables/${t.Countries}/links/${await colId('Countries', 'Sold')}/records/${row}`, ids.map((Id) => ({ Id })))).status).toBeLessThan(300);
    }
    expect((await add('Countries', { title: 'SoldNames', uidt: 'Lookup', fk_relation_column_id: await colId('Countries', 'Sold'), fk_lookup_column_id: await colId('Books', 'Name') })).status).toBe(200);
    expect((await read('Countries', 'sort=Id')).body.list.map((r: any) => r.SoldNames)).toEqual([['b2', 'b4'], ['b1'], []]);
    expect(await order('Countries', 'sort=SoldNames')).toEqual(['XX', 'NO', 'PT']);
    expect(await order('Countries', `sort=-SoldNames&where=${encodeURIComponent('(SoldNames,like,b%)')}`)).toEqual(['PT', 'NO']);
    expect(await order('Countries', `where=${encodeURIComponent('(SoldNames,eq,b4)')}`)).toEqual(['PT']);
    // A lookup of a has-many lookup (a list of lists, read and sorted flattened): PT [b1, b3, b2], NO [b4], XX none.
    expect(await order('Countries', 'sort=-Titles')).toEqual(['NO', 'PT', 'XX']);
    expect(await order('Countries', `sort=Titles&where=${encodeURIComponent('(Titles,isnot,null)')}`)).toEqual(['PT', 'NO']);
    expect(await order('Countries', `sort=Id&where=${encodeURIComponent('(Titles,eq,b2)')}`)).toEqual(['PT']);
    expect(await order('Countries', `sort=Id&where=${encodeURIComponent('(Titles,neq,b4)')}`)).toEqual(['PT', 'XX']);
    expect(await order('Countries', `sort=Id&where=${encodeURIComponent('(Titles,blank)')}`)).toEqual(['XX']);
  });

  it('sets a one-to-one link through the v1 nested route; the child side reads its parent as an object', async () => {
    const base = (await raw('GET', `/api/v2/meta/tables/${t.Countries}`)).body.base_id;
    expect((await add('Countries', { title: 'Capital', uidt: 'LinkToAnotherRecord', parentId: t.Countries, childId: t.Books, type: 'oo' })).status).toBe(200);
    const linked = await raw('POST', `/api/v1/db/data/noco/${base}/${t.Countries}/2/oo/Capital/4`);
    expect(linked.status).toBe(200);
    expect((await raw('GET', `/api/v1/db/data/noco/${base}/${t.Countries}/2`)).body.Capital).toEqual({ Id: 4, Name: 'b4' });
    const listed = await raw('GET', `/api/v1/db/data/noco/${base}/${t.Countries}/2/oo/Capital`);
    expect([listed.status, listed.body.list.map((r: any) => r.Id)]).toEqual([200, [4]]);
    // hm child side: an author reads its country as an object.
    const ann = (await read('Authors', 'sort=Id')).body.list[0];
    const country = Object.values(ann).find((v: any) => v && typeof v === 'object' && !Array.isArray(v) && v.Name === 'PT');
    expect(country).toEqual({ Id: 1, Name: 'PT' });
    expect((await raw('DELETE', `/api/v1/db/data/noco/${base}/${t.Countries}/2/oo/Capital/4`)).status).toBe(200);
    expect((await raw('GET', `/api/v1/db/data/noco/${base}/${t.Countries}/2`)).body.Capital).toBeNull();
  });

  it('changes an existing lookup through PATCH, and refuses a change that points it into a cycle (400, nothing changed)', async () => {
    const authorCountry = (await cols('Authors')).find((c) => c.colOptions?.type === 'bt')!.id;
    const country = await colId('Authors', 'Country');
    const patch = (id: string, body: Record<string, unknown>) => raw('PATCH', `/api/v2/meta/columns/${id}`, body);
    // Authors.Titles → (its country) Countries.Titles → Authors.Titles: a cycle.
    const titles = await colId('Authors', 'Titles');
    const cycle = await patch(titles, { fk_relation_column_id: authorCountry, fk_lookup_column_id: await colId('Countries', 'Titles') });
    expect([cycle.status, cycle.body.msg]).toEqual([400, expect.stringMatching(/cycle/)]);
    // Countries.Pages (a rollup of Authors.Pages) as the target of Authors.Pages: a cycle through a rollup.
    const rollupCycle = await patch(await colId('Authors', 'Pages'), { fk_relation_column_id: authorCountry, fk_rollup_column_id: await colId('Countries', 'Pages') });
    expect([rollupCycle.status, rollupCycle.body.msg]).toEqual([400, expect.stringMatching(/cycle/)]);
    const authors = async () => (await read('Authors', 'sort=Id')).body.list.map((r: any) => [r.Name, r.Titles, r.Pages, r.Country]);
    expect(await authors()).toEqual([['Ann', ['b1', 'b3'], 150, 'PT'], ['Bob', ['b2'], 50, 'PT'], ['Cid', ['b4'], 7, 'NO']]);
    // Authors.Country is read by Books' lookups: a change of the kind of value it reads (text → number) is refused, nothing changed.
    const readBy = await patch(country, { fk_lookup_column_id: await colId('Countries', 'Pages') });
    expect([readBy.status, readBy.body.msg]).toEqual([400, expect.stringMatching(/is read by .*Lookup 'Country'/)]);
    expect((await authors()).map((r: any[]) => r[3])).toEqual(['PT', 'PT', 'NO']);
    // A change into no cycle on a lookup nothing reads: Books.Country reads its author's rollup of rollups, then the country again.
    const bookCountry = await colId('Books', 'Country');
    const books = async () => (await read('Books', 'sort=Id')).body.list.map((r: any) => r.Country);
    expect((await patch(bookCountry, { fk_lookup_column_id: await colId('Authors', 'Pages') })).status).toBe(200);
    expect(await books()).toEqual([150, 50, 150, 7]);
    expect((await patch(bookCountry, { title: 'Country', uidt: 'Lookup', fk_lookup_column_id: country })).status).toBe(200);
    expect(await books()).toEqual(['PT', 'PT', 'PT', 'NO']);
  });

  it('refuses a rollup of a has-many lookup (a list) with a 400', async () => {
    const r = await add('Countries', { title: 'Bad', uidt: 'Rollup', fk_relation_column_id: await colId('Countries', 'Authors'), fk_rollup_column_id: await colId('Authors', 'Titles'), rollup_function: 'count' });
    expect(r.status).toBe(400);
  });
});
