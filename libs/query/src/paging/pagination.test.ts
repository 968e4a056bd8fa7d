import { buildPageInfo, parsePagination } from './pagination';

describe('parsePagination', () => {
  it.each([
    [undefined, 25], ['', 25], ['10', 10], [10, 10], ['1', 1], ['1000', 1000], ['1001', 1000], ['1e9', 1000],
    ['1.5', 25], ['abc', 25], ['-1', 25], ['0', 25], [' 7 ', 7], [['5', '9'], 5], [Infinity, 25], [null, 25],
  ])('limit %p → %p', (limit, expected) => {
    expect(parsePagination({ limit }).limit).toBe(expected);
  });

  it.each([
    [undefined, 0], ['5', 5], ['-5', 0], ['1.5', 0], ['abc', 0], [40, 40], ['1e30', Number.MAX_SAFE_INTEGER],
  ])('offset %p → %p', (offset, expected) => {
    expect(parsePagination({ offset }).offset).toBe(expected);
  });

  it('takes configured defaults', () => {
    expect(parsePagination({}, { defaultLimit: 50, maxLimit: 200 })).toEqual({ limit: 50, offset: 0 });
    expect(parsePagination({ limit: '500' }, { defaultLimit: 50, maxLimit: 200 }).limit).toBe(200);
    expect(parsePagination({}, { defaultLimit: 5000, maxLimit: 200 }).limit).toBe(200);
  });
});

describe('buildPageInfo', () => {
  it('computes page = floor(offset / limit) + 1 and the first/last flags', () => {
    expect(buildPageInfo({ totalRows: 60, limit: 25, offset: 0 })).toEqual({
      totalRows: 60, page: 1, pageSize: 25, isFirstPage: true, isLastPage: false,
    });
    expect(buildPageInfo({ totalRows: 60, limit: 25, offset: 50 })).toMatchObject({ page: 3, isFirstPage: false, isLastPage: true });
    expect(buildPageInfo({ totalRows: 60, limit: 25, offset: 30 })).toMatchObject({ page: 2, isLastPage: false });
    expect(buildPageInfo({ totalRows: 0, limit: 25, offset: 0 })).toMatchObject({ page: 1, isFirstPage: true, isLastPage: true });
    expect(buildPageInfo({ totalRows: 10, limit: 25, offset: 100 })).toMatchObject({ page: 5, isLastPage: true });
  });
});
