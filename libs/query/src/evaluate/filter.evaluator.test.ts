import { COLUMNS, NOW } from '../../test/fixtures/columns';
import { ROWS, WHERE_CASES } from '../../test/fixtures/operator-table';
import { filterFromRows, parseFilterArrJson, parseWhere, type ColumnMeta } from '../index';
import { matchesFilter } from './filter.evaluator';

/**
 * The in-memory evaluator (hook conditions) runs the operator table the SQL
 * compiler runs on pg, MySQL and SQLite (test/operators.*.test.ts): a hook
 * condition and a list `where` select the same rows.
 */
const rows = ROWS.map((r) => ({ ...r, other_col: r.id === 2 ? 'C:\\temp_dir!' : null }));

function idsMatching(ast: ReturnType<typeof parseWhere>): number[] {
  return rows.filter((row) => matchesFilter(ast, row, COLUMNS, NOW)).map((r) => r.id);
}

describe('in-memory filter evaluator: the operator table of the SQL compiler', () => {
  it.each(WHERE_CASES)('where %s', (where, expected) => {
    expect(idsMatching(parseWhere(where, COLUMNS))).toEqual(expected);
  });

  it('filterArrJson in both styles', () => {
    const spec = JSON.stringify([{ field: 'Num', op: 'gt', value: 5 }, { field: 'Tags', op: 'anyof', value: 'a' }]);
    expect(idsMatching(parseFilterArrJson(spec, COLUMNS))).toEqual([1, 3]);
    const noco = JSON.stringify([
      { fk_column_id: 'cdue0000000000001', comparison_op: 'lt', comparison_sub_op: 'today' },
      { fk_column_id: 'cdone000000000001', comparison_op: 'checked', logical_op: 'or' },
    ]);
    expect(idsMatching(parseFilterArrJson(noco, COLUMNS))).toEqual([1, 2, 4, 5, 6]);
  });

  it('reads a row keyed by title as well as by column name', () => {
    const ast = parseWhere('(other name,like,temp)', COLUMNS);
    expect(matchesFilter(ast, { 'other name': 'C:\\temp_dir!' }, COLUMNS, NOW)).toBe(true);
    expect(matchesFilter(ast, { 'other name': 'nope' }, COLUMNS, NOW)).toBe(false);
  });
});

const columns: ColumnMeta[] = [
  { id: 'c1', title: 'Name', column_name: 'name', uidt: 'SingleLineText' },
  { id: 'c2', title: 'Qty', column_name: 'qty', uidt: 'Number' },
  { id: 'c3', title: 'Done', column_name: 'done', uidt: 'Checkbox' },
  { id: 'c4', title: 'Day', column_name: 'day', uidt: 'Date' },
  { id: 'c5', title: 'Tags', column_name: 'tags', uidt: 'MultiSelect' },
];
const f = (rows: object[]) => filterFromRows(rows.map((r, i) => ({ id: `f${i}`, ...r })) as never, columns);

describe('filter evaluator on stored hook filter rows', () => {
  it('compares text case-sensitively with eq (like the compiler), numbers numerically, negatives match null', () => {
    expect(matchesFilter(f([{ fk_column_id: 'c1', comparison_op: 'eq', value: 'APPLE' }]), { Name: 'apple' }, columns)).toBe(false);
    expect(matchesFilter(f([{ fk_column_id: 'c1', comparison_op: 'eq', value: 'apple' }]), { Name: 'apple' }, columns)).toBe(true);
    expect(matchesFilter(f([{ fk_column_id: 'c2', comparison_op: 'gt', value: '5' }]), { Qty: 10 }, columns)).toBe(true);
    expect(matchesFilter(f([{ fk_column_id: 'c2', comparison_op: 'gt', value: '5' }]), { Qty: null }, columns)).toBe(false);
    expect(matchesFilter(f([{ fk_column_id: 'c1', comparison_op: 'neq', value: 'x' }]), { Name: null }, columns)).toBe(true);
    expect(matchesFilter(f([{ fk_column_id: 'c1', comparison_op: 'like', value: 'pp' }]), { Name: 'Apple' }, columns)).toBe(true);
    expect(matchesFilter(f([{ fk_column_id: 'c1', comparison_op: 'blank' }]), { Name: '' }, columns)).toBe(true);
    expect(matchesFilter(f([{ fk_column_id: 'c3', comparison_op: 'checked' }]), { Done: true }, columns)).toBe(true);
    expect(matchesFilter(f([{ fk_column_id: 'c5', comparison_op: 'anyof', value: 'b,z' }]), { Tags: 'a,b' }, columns)).toBe(true);
    expect(matchesFilter(f([{ fk_column_id: 'c5', comparison_op: 'allof', value: 'b,z' }]), { Tags: 'a,b' }, columns)).toBe(false);
  });
  it('joins with and / or / not and nests groups', () => {
    const ast = f([
      { fk_column_id: 'c2', comparison_op: 'gt', value: '5', order: 1 },
      { fk_column_id: 'c1', comparison_op: 'eq', value: 'x', logical_op: 'or', order: 2 },
    ]);
    expect(matchesFilter(ast, { Qty: 1, Name: 'x' }, columns)).toBe(true);
    expect(matchesFilter(ast, { Qty: 1, Name: 'y' }, columns)).toBe(false);
    const not = f([{ fk_column_id: 'c1', comparison_op: 'eq', value: 'x', logical_op: 'not' }]);
    expect(matchesFilter(not, { Name: 'x' }, columns)).toBe(false);
  });
  it('compares dates by day', () => {
    const ast = f([{ fk_column_id: 'c4', comparison_op: 'eq', comparison_sub_op: 'exactDate', value: '2024-01-31' }]);
    expect(matchesFilter(ast, { Day: '2024-01-31' }, columns)).toBe(true);
    const within = f([{ fk_column_id: 'c4', comparison_op: 'isWithin', comparison_sub_op: 'pastWeek' }]);
    expect(matchesFilter(within, { Day: '2024-01-30' }, columns, new Date('2024-02-02T00:00:00Z'))).toBe(true);
    expect(matchesFilter(within, { Day: '2024-01-01' }, columns, new Date('2024-02-02T00:00:00Z'))).toBe(false);
  });
});
