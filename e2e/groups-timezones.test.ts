import { Api } from 'nocodb-sdk';
import { describeVariant, variantSuite } from './source-variants.helpers';

/**
 * nocodb-sdk's grouped data list (`dbTableRow.groupedDataList`,
 * `dbViewRow.groupedDataList`: `…/group/{columnId}`) answered as NocoDB 0.301.3
 * answers it (`[{ key, value: { list, pageInfo } }]`, `where` and paging inside
 * each group, `options` picking the groups), and DateTime day filters in the
 * caller's time zone (`whereTz`): `eq today` matches any time of that day there.
 * On the default PostgreSQL source, an external SQLite file and an external MariaDB database.
 */
const suite = variantSuite('groups', 'groups-tz@example.com');
const { variants, raw } = suite;

/** Today in Tokyo (UTC+9, no daylight saving) and an instant of a Tokyo day as UTC text. */
const tokyoDay = (offset: number) => new Date(Date.now() + 9 * 3_600_000 + offset * 86_400_000).toISOString().slice(0, 10);
const tokyo = (day: string, time: string) => new Date(`${day}T${time}:00+09:00`).toISOString().replace('T', ' ').slice(0, 19);

for (const variant of variants) describeVariant(variant.name, `group lists and time zones on ${variant.name}`, () => {
  let base: string;
  let table: string;
  let kind: string;
  let api: Api<unknown>;
  const ids = (list: { Id: number }[]) => list.map((r) => r.Id);

  beforeAll(async () => {
    const extra = await variant.body();
    if (!extra) throw new Error(`${variant.name}: no backend for this variant`);
    base = (await raw('POST', '/api/v1/db/meta/projects', { title: `Groups ${variant.name}`, ...extra })).body.id;
    const made = await raw('POST', `/api/v2/meta/bases/${base}/tables`, {
      title: 'Events', table_name: 'events', columns: [
        { column_name: 'id', title: 'Id', uidt: 'ID', pk: true, ai: true },
        { column_name: 'title', title: 'Title', uidt: 'SingleLineText' },
        { column_name: 'kind', title: 'Kind', uidt: 'SingleSelect', colOptions: { options: [{ title: 'x' }, { title: 'y' }] } },
        { column_name: 'at', title: 'At', uidt: 'DateTime' },
      ],
    });
    table = made.body.id;
    kind = made.body.columns.find((c: { title: string }) => c.title === 'Kind').id;
    const today = tokyoDay(0);
    // 1, 2: early and late on today's Tokyo date; 3: late yesterday there; 4: early tomorrow there; 5: no time.
    expect((await raw('POST', `/api/v2/tables/${table}/records`, [
      { Title: 'a', Kind: 'x', At: tokyo(today, '00:30') }, { Title: 'b', Kind: 'y', At: tokyo(today, '23:30') },
      { Title: 'c', Kind: 'x', At: tokyo(tokyoDay(-1), '23:30') }, { Title: 'd', Kind: 'x', At: tokyo(tokyoDay(1), '00:30') }, { Title: 'e', Kind: null, At: null },
    ])).status).toBe(200);
    api = new Api({ baseURL: suite.stack.url, headers: { 'xc-auth': suite.token } });
  }, 120_000);

  it('DateTime eq today (and its neighbours) take the days of the caller\'s time zone', async () => {
    const where = async (w: string, tz = 'Asia/Tokyo') => {
      const r = await raw('GET', `/api/v2/tables/${table}/records?sort=Id&whereTz=${encodeURIComponent(tz)}&where=${encodeURIComponent(w)}`);
      expect(r.status).toBe(200);
      return ids(r.body.list);
    };
    expect(await where('(At,eq,today)')).toEqual([1, 2]);
    expect(await where('(At,neq,today)')).toEqual([3, 4, 5]);
    expect(await where('(At,eq,yesterday)')).toEqual([3]);
    expect(await where('(At,eq,tomorrow)')).toEqual([4]);
    expect(await where('(At,lt,today)')).toEqual([3]);
    expect(await where('(At,gt,today)')).toEqual([4]);
    expect(await where('(At,gte,today)')).toEqual([1, 2, 4]);
    expect(await where('(At,lte,today)')).toEqual([1, 2, 3]);
    expect(await where(`(At,eq,exactDate,${tokyoDay(0)})`)).toEqual([1, 2]);
    expect(await where('(At,isWithin,nextNumberOfDays,1)')).toEqual([1, 2, 4]);
    expect(await where('(At,isWithin,pastNumberOfDays,1)')).toEqual([1, 2, 3]);
    // v1 reads take it too; an unknown zone is a 400.
    const v1 = await raw('GET', `/api/v1/db/data/noco/${base}/${table}?sort=Id&whereTz=Asia%2FTokyo&where=${encodeURIComponent('(At,eq,today)')}`);
    expect(ids(v1.body.list)).toEqual([1, 2]);
    expect((await raw('GET', `/api/v2/tables/${table}/records?whereTz=Mars%2FOlympus&where=${encodeURIComponent('(At,eq,today)')}`)).status).toBe(400);
  });

  it('groupedDataList: one page of records per value, blank first; where and paging inside each group; options pick the groups', async () => {
    const all = await api.dbTableRow.groupedDataList('noco', base, table, kind, { sort: ['Id'] as never });
    expect(all.map((g: any) => [g.key, ids(g.value.list), g.value.pageInfo.totalRows])).toEqual([[null, [5], 1], ['x', [1, 3, 4], 3], ['y', [2], 1]]);
    const paged = await raw('GET', `/api/v1/db/data/noco/${base}/${table}/group/${kind}?sort=Id&limit=1&where=${encodeURIComponent('(Title,neq,b)')}`);
    expect(paged.body.map((g: any) => [g.key, ids(g.value.list), g.value.pageInfo.totalRows, g.value.pageInfo.isLastPage]))
      .toEqual([[null, [5], 1, true], ['x', [1], 3, false], ['y', [], 0, true]]);
    const picked = await raw('GET', `/api/v1/db/data/noco/${base}/${table}/group/Kind?options=y&sort=Id`);
    expect(picked.body.map((g: any) => [g.key, ids(g.value.list)])).toEqual([['y', [2]]]);
    const view = (await raw('GET', `/api/v1/db/meta/tables/${table}/views`)).body.list[0].id;
    const inView = await api.dbViewRow.groupedDataList('noco', base, table, view, kind, { sort: ['-Id'] as never });
    expect(inView.map((g: any) => [g.key, ids(g.value.list)])).toEqual([[null, [5]], ['x', [4, 3, 1]], ['y', [2]]]);
    expect(inView[1].value.list[0]).toMatchObject({ Title: 'd', Kind: 'x' });
    const missing = await raw('GET', `/api/v1/db/data/noco/${base}/${table}/group/nothere`);
    expect([missing.status, missing.body.error]).toEqual([404, 'ERR_FIELD_NOT_FOUND']);
  });
});
