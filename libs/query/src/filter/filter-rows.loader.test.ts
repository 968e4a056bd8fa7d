import { COLUMNS } from '../../test/fixtures/columns';
import { filterFromRows, type StoredFilterRow } from './filter-rows.loader';
import { parseWhere } from './filter.resolver';

describe('filterFromRows', () => {
  it('nests rows under fk_parent_id and orders siblings', () => {
    const rows: StoredFilterRow[] = [
      { id: 'fi2', fk_column_id: 'cnum0000000000001', comparison_op: 'gt', value: '3', logical_op: 'and', order: 2 },
      { id: 'fi1', fk_column_id: 'ctitle00000000001', comparison_op: 'like', value: 'x', logical_op: 'and', order: 1 },
      { id: 'fig', is_group: true, logical_op: 'or', order: 3 },
      { id: 'fi4', fk_parent_id: 'fig', fk_column_id: 'cdue0000000000001', comparison_op: 'eq', comparison_sub_op: 'today', logical_op: 'and', order: 2 },
      { id: 'fi3', fk_parent_id: 'fig', fk_column_id: 'cdone000000000001', comparison_op: 'checked', logical_op: 'and', order: 1 },
    ];
    expect(filterFromRows(rows, COLUMNS)).toEqual(
      parseWhere('(Title,like,x)~and(Num,gt,3)~or((Done,checked)~and(Due,eq,today))', COLUMNS),
    );
  });

  it('skips incomplete rows, deleted columns, empty groups and cycles', () => {
    const rows: StoredFilterRow[] = [
      { id: 'a', fk_column_id: 'cnum0000000000001', comparison_op: null, value: '1' },
      { id: 'b', fk_column_id: 'cgone', comparison_op: 'eq', value: '1' },
      { id: 'c', is_group: 1 },
      { id: 'd', fk_parent_id: 'e', fk_column_id: 'cnum0000000000001', comparison_op: 'eq', value: '1' },
      { id: 'e', fk_parent_id: 'd', is_group: true },
      { id: 'f', fk_column_id: 'cnum0000000000001', comparison_op: 'eq', value: 2 },
    ];
    expect(filterFromRows(rows, COLUMNS)).toEqual(parseWhere('(Num,eq,2)', COLUMNS));
  });

  it('can refuse rows naming deleted columns', () => {
    const rows: StoredFilterRow[] = [{ id: 'b', fk_column_id: 'cgone', comparison_op: 'eq', value: '1' }];
    expect(() => filterFromRows(rows, COLUMNS, { skipUnknownColumns: false })).toThrow(/not found/);
  });
});
