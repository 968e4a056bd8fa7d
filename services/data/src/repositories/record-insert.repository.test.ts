import type { ColumnInfo, TableContext } from '@tabula/contracts';
import { taskColumns } from '../../test/table.fixture';
import type { TableHandle } from '../context/table-handle';
import { buildTableModel } from '../model/table-model';
import { toDbRow, type DbRow } from '../model/record-writer';
import { rowsSource } from './record-insert.repository';

const extraJson: ColumnInfo = {
  id: 'c99999999999999', fk_model_id: 'mtasks00000000', title: 'Doc', column_name: 'doc', uidt: 'JSON', dt: 'jsonb',
  pk: false, pv: false, rqd: false, unique: false, ai: false, au: false, system: false, order: 99,
};
const context = (): TableContext => ({
  base: { id: 'p1', title: 'B' },
  source: { id: 'b1', base_id: 'p1', type: 'pg', is_meta: true, schema: 's' },
  table: { id: 'mtasks00000000', base_id: 'p1', source_id: 'b1', table_name: 'tasks', title: 'Tasks', type: 'table', columns: [...taskColumns(), extraJson], views: [] },
});
const handle = { model: buildTableModel(context()) } as unknown as TableHandle;
const T = ['s', 'tasks'];
const rowsOf = (bodies: Record<string, unknown>[], now: Date, userId = 'us1'): DbRow[] =>
  bodies.map((b) => toDbRow(handle.model, b, { mode: 'insert', now, userId }));

describe('rowsSource', () => {
  const now = new Date(Date.UTC(2024, 0, 2, 3, 4, 5));

  it('takes the stamps a batch shares once, from s, and every other key per row, from r, in key order', () => {
    const rows = rowsOf([{ Title: 'a', Count: 1, Doc: { x: [1] } }, { Title: 'b', Count: 2, Doc: { x: [2] } }, { Title: 'c', Count: 3, Doc: null }], now);
    const keys = Object.keys(rows[0]);
    const src = rowsSource(handle, rows, keys, T);
    expect(src.shared.sort()).toEqual(['created_at', 'created_by', 'updated_at', 'updated_by']);
    expect(src.selectBindings).toEqual(keys);
    expect(src.select.split(', ')).toEqual(keys.map((k) => (src.shared.includes(k) ? 's.??' : 'r.??')));
    expect(src.from).toBe('json_populate_recordset(null::??.??, ?::json) with ordinality as r cross join json_populate_record(null::??.??, ?::json) as s');
    expect(src.order).toBe('r.ordinality');
    const [s1, t1, perRow, s2, t2, once] = src.fromBindings as string[];
    expect([s1, t1, s2, t2]).toEqual(['s', 'tasks', 's', 'tasks']);
    // Each row carries its own values only; a json column's value is embedded as JSON, not as a string.
    expect(JSON.parse(perRow)).toEqual([
      { title: 'a', count: 1, doc: { x: [1] } }, { title: 'b', count: 2, doc: { x: [2] } }, { title: 'c', count: 3, doc: null },
    ]);
    expect(JSON.parse(once)).toEqual({
      created_at: '2024-01-02 03:04:05+00:00', updated_at: '2024-01-02 03:04:05+00:00', created_by: 'us1', updated_by: 'us1',
    });
  });

  it('keeps a stamp per row where the rows differ (single inserts of several requests batched together)', () => {
    const rows = [...rowsOf([{ Title: 'a' }], now, 'us1'), ...rowsOf([{ Title: 'b' }], new Date(now.getTime() + 1000), 'us1')];
    const src = rowsSource(handle, rows, Object.keys(rows[0]), T);
    expect(src.shared.sort()).toEqual(['created_by', 'updated_by']);
    const perRow = JSON.parse(src.fromBindings[2] as string) as DbRow[];
    expect(perRow.map((r) => r.created_at)).toEqual(['2024-01-02 03:04:05+00:00', '2024-01-02 03:04:06+00:00']);
    expect(perRow[0]).not.toHaveProperty('created_by');
  });

  it('leaves one row, and columns a client sets, per row', () => {
    const one = rowsOf([{ Title: 'a' }], now);
    const single = rowsSource(handle, one, Object.keys(one[0]), T);
    expect(single).toMatchObject({ shared: [], from: 'json_populate_recordset(null::??.??, ?::json) with ordinality as r' });
    expect(JSON.parse(single.fromBindings[2] as string)).toEqual(one);
    // Every row has Title 'same': a client column is never taken once (only the stamps the writer sets).
    const same = rowsOf([{ Title: 'same' }, { Title: 'same' }], now);
    expect(rowsSource(handle, same, Object.keys(same[0]), T).shared).not.toContain('title');
  });

  it('orders by r.ordinality, or by a position of its own where the table has a column named ordinality', () => {
    const rows = rowsOf([{ Title: 'a' }, { Title: 'b' }], now);
    expect(rowsSource(handle, rows, Object.keys(rows[0]), T).order).toBe('r.ordinality');
    const ordinality: ColumnInfo = { ...extraJson, id: 'c99999999999998', title: 'Ordinality', column_name: 'ordinality', uidt: 'SingleLineText', dt: 'text' };
    const own = context();
    own.table.columns.push(ordinality);
    const clashing = { model: buildTableModel(own) } as unknown as TableHandle;
    const src = rowsSource(clashing, rows, Object.keys(rows[0]), T);
    expect(src.from).toBe('json_array_elements(?::json) with ordinality as e("__row", "__ord") cross join lateral json_populate_record(null::??.??, e."__row") as r cross join json_populate_record(null::??.??, ?::json) as s');
    expect(src.order).toBe('e."__ord"');
    const [perRow, s1, t1] = src.fromBindings as string[];
    expect([s1, t1]).toEqual(['s', 'tasks']);
    expect(JSON.parse(perRow).map((r: DbRow) => r.title)).toEqual(['a', 'b']);
  });
});
