import { COLUMNS } from '../../test/fixtures/columns';
import { QueryError } from '../query-error';
import { parseFilterArrJson } from './filter-arr-json.normaliser';
import { parseWhere } from './filter.resolver';

function error(json: string): QueryError {
  try {
    parseFilterArrJson(json, COLUMNS);
  } catch (e) {
    expect(e).toBeInstanceOf(QueryError);
    return e as QueryError;
  }
  throw new Error('expected a QueryError');
}

describe('parseFilterArrJson', () => {
  it('accepts the spec style [{field, op, value}] by title or id', () => {
    const ast = parseFilterArrJson(
      JSON.stringify([{ field: 'Num', op: 'gt', value: 3 }, { field: 'ctitle00000000001', op: 'like', value: 'x' }]),
      COLUMNS,
    );
    expect(ast).toEqual(parseWhere('(Num,gt,3)~and(Title,like,x)', COLUMNS));
  });

  it("accepts NocoDB's style with sub-operators, logical operators and groups", () => {
    const json = JSON.stringify([
      { fk_column_id: 'cdue0000000000001', comparison_op: 'eq', comparison_sub_op: 'exactDate', value: '2024-01-31', logical_op: 'and' },
      {
        is_group: true,
        logical_op: 'or',
        children: [
          { fk_column_id: 'cnum0000000000001', comparison_op: 'in', value: '1,2', logical_op: 'and' },
          { fk_column_id: 'cdone000000000001', comparison_op: 'checked', logical_op: 'not' },
        ],
      },
    ]);
    expect(parseFilterArrJson(json, COLUMNS)).toEqual(
      parseWhere('(Due,eq,exactDate,2024-01-31)~or((Num,in,1,2)~not(Done,checked))', COLUMNS),
    );
  });

  it('takes list values as arrays and date values without a sub-operator', () => {
    const ast = parseFilterArrJson(
      JSON.stringify([{ field: 'Num', op: 'in', value: [1, '2', 3] }, { field: 'Due', op: 'lt', value: '2024-01-31' }]),
      COLUMNS,
    );
    expect(ast.children).toMatchObject([{ value: [1, 2, 3] }, { subOp: 'exactDate', value: '2024-01-31' }]);
  });

  it('returns an empty filter for nothing and an empty array', () => {
    expect(parseFilterArrJson(undefined, COLUMNS).children).toEqual([]);
    expect(parseFilterArrJson('[]', COLUMNS).children).toEqual([]);
  });

  it('answers 400 ERR_INVALID_REQUEST for malformed JSON or a non-array', () => {
    for (const json of ['[{', 'nope', '{"field":"Num"}', '42']) {
      const e = error(json);
      expect([e.status, e.code]).toEqual([400, 'ERR_INVALID_REQUEST']);
    }
  });

  it('answers 422 ERR_INVALID_FILTER for unknown fields, operators and bad items', () => {
    const cases = [
      [{ field: 'Nope', op: 'eq', value: 1 }],
      [{ field: 'Num', op: 'nope', value: 1 }],
      [{ field: 'Num', value: 1 }],
      [{ field: 'Num', op: 'eq', value: { x: 1 } }],
      ['string item'],
      [{ field: 'Num', op: 'eq', value: 1, logical_op: 'xor' }],
      [{ field: 'Num', op: 'eq', value: 'abc' }],
    ];
    for (const items of cases) {
      const e = error(JSON.stringify(items));
      expect([e.status, e.code]).toEqual([422, 'ERR_INVALID_FILTER']);
    }
  });

  it('limits group nesting to 50', () => {
    const nest = (n: number): unknown => (n === 0 ? { field: 'Num', op: 'eq', value: 1 } : { is_group: true, children: [nest(n - 1)] });
    expect(() => parseFilterArrJson(JSON.stringify([nest(50)]), COLUMNS)).not.toThrow();
    expect(error(JSON.stringify([nest(51)])).status).toBe(422);
    expect(error(`${'['.repeat(5000)}${']'.repeat(5000)}`).status).toBe(422);
  });
});
