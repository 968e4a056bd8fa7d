import { commentCount } from './comment-count';

const parse = (query: Record<string, unknown>) => commentCount.query!.safeParse({ fk_model_id: 'm1', ...query });

describe('commentCount query', () => {
  it('takes repeated ids, ids[], one id, or one JSON array; dedupes', () => {
    expect(parse({ ids: ['1', '2', '2'] }).data).toEqual({ fk_model_id: 'm1', ids: ['1', '2'] });
    expect(parse({ 'ids[]': ['a', 'b'] }).data).toEqual({ fk_model_id: 'm1', ids: ['a', 'b'] });
    expect(parse({ ids: '7' }).data).toEqual({ fk_model_id: 'm1', ids: ['7'] });
    expect(parse({ ids: '["1",2]' }).data).toEqual({ fk_model_id: 'm1', ids: ['1', '2'] });
    expect(parse({ ids: '1', 'ids[]': '2' }).data).toEqual({ fk_model_id: 'm1', ids: ['1', '2'] });
  });

  it('refuses what is not a list of ids, and more than 1000', () => {
    for (const query of [{}, { ids: '{"a":1}' }, { ids: '[[1]]' }, { ids: '[1' }, { ids: '[""]' }, { 'ids[a]': '1' }]) {
      const result = parse(query);
      expect([query, result.success]).toEqual([query, false]);
      expect(result.error!.issues[0].path).toEqual(['ids']);
    }
    expect(parse({ ids: Array.from({ length: 1000 }, (_, i) => String(i)) }).success).toBe(true);
    expect(parse({ ids: Array.from({ length: 1001 }, (_, i) => String(i)) }).error!.issues[0].message).toMatch(/1000/);
    expect(commentCount.query!.safeParse({ ids: ['1'] }).success).toBe(false);
  });
});
