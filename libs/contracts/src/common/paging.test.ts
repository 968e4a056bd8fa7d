import { pageInfo, pagingQuery, resolvePaging, singlePage } from './paging';

describe('resolvePaging: the one paging rule of every list', () => {
  it.each([
    [undefined, 25], ['', 25], ['10', 10], [10, 10], ['1', 1], ['1000', 1000], ['1001', 1000], ['5000', 1000], ['1e9', 1000],
    ['1.5', 25], ['abc', 25], ['-1', 25], ['0', 25], [' 7 ', 7], [['5', '9'], 5], [Infinity, 25], [null, 25],
  ])('limit %p → %p', (limit, expected) => {
    expect(resolvePaging({ limit }).limit).toBe(expected);
  });

  it.each([
    [undefined, 0], ['5', 5], ['-5', 0], ['-1', 0], ['1.5', 0], ['abc', 0], [40, 40], ['1e30', Number.MAX_SAFE_INTEGER],
  ])('offset %p → %p', (offset, expected) => {
    expect(resolvePaging({ offset }).offset).toBe(expected);
  });

  it('takes page/pageSize as the spec names them; limit wins over pageSize, offset over page', () => {
    expect(resolvePaging({ page: '3', pageSize: '10' })).toEqual({ limit: 10, offset: 20 });
    expect(resolvePaging({ page: 'abc', pageSize: 'abc' })).toEqual({ limit: 25, offset: 0 });
    expect(resolvePaging({ page: '0', pageSize: '5000' })).toEqual({ limit: 1000, offset: 0 });
    expect(resolvePaging({ limit: '5', pageSize: '10', page: '2' })).toEqual({ limit: 5, offset: 5 });
    expect(resolvePaging({ limit: 'abc', pageSize: '10' })).toEqual({ limit: 10, offset: 0 });
    expect(resolvePaging({ offset: '7', page: '3', pageSize: '10' })).toEqual({ limit: 10, offset: 7 });
    expect(resolvePaging({ offset: '-1', page: '3', pageSize: '10' })).toEqual({ limit: 10, offset: 20 });
  });

  it('takes a list\'s own default and maximum', () => {
    expect(resolvePaging({}, { limit: 50, max: 200 })).toEqual({ limit: 50, offset: 0 });
    expect(resolvePaging({ limit: '500' }, { limit: 50, max: 200 }).limit).toBe(200);
    expect(resolvePaging({}, { limit: 5000, max: 200 }).limit).toBe(200);
  });

  it('the query schema accepts every odd value (no 400 for paging)', () => {
    for (const q of [{ limit: 'abc' }, { limit: '0' }, { limit: '-1' }, { limit: '5000' }, { offset: '-1' }, { page: 'x', pageSize: '1.5' }, { limit: ['1', '2'] }]) {
      expect(pagingQuery.safeParse(q).success).toBe(true);
    }
  });
});

describe('pageInfo', () => {
  it('computes page = floor(offset / limit) + 1 and the first/last flags', () => {
    expect(pageInfo(60, 25, 0)).toEqual({ totalRows: 60, page: 1, pageSize: 25, isFirstPage: true, isLastPage: false });
    expect(pageInfo(60, 25, 50)).toMatchObject({ page: 3, isFirstPage: false, isLastPage: true });
    expect(pageInfo(60, 25, 30)).toMatchObject({ page: 2, isLastPage: false });
    expect(pageInfo(0, 25, 0)).toMatchObject({ page: 1, isFirstPage: true, isLastPage: true });
    expect(pageInfo(10, 25, 100)).toMatchObject({ page: 5, isLastPage: true });
  });

  it('describes a whole small list as one page', () => {
    expect(singlePage(['a', 'b']).pageInfo).toEqual({ totalRows: 2, page: 1, pageSize: 2, isFirstPage: true, isLastPage: true });
    expect(singlePage([]).pageInfo).toEqual({ totalRows: 0, page: 1, pageSize: 1, isFirstPage: true, isLastPage: true });
  });
});
