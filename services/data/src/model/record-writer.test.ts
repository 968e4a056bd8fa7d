import { AppError } from '@tabula/http';
import { taskColumns } from '../../test/table.fixture';
import { buildTableModel } from './table-model';
import { toDbRow } from './record-writer';
import { parseRowId, splitRowId, keyOfBody } from './row-id';
import { presentRecord } from '../presenters/record.presenter';
import type { TableContext } from '@tabula/contracts';

const context = (): TableContext => ({
  base: { id: 'p1', title: 'B' },
  source: { id: 'b1', base_id: 'p1', type: 'pg', is_meta: true, schema: 's' },
  table: { id: 'mtasks00000000', base_id: 'p1', source_id: 'b1', table_name: 'tasks', title: 'Tasks', type: 'table', columns: taskColumns(), views: [] },
});
const now = new Date(Date.UTC(2024, 0, 2, 3, 4, 5));

function fails(fn: () => unknown): AppError {
  try { fn(); } catch (err) { return err as AppError; }
  throw new Error('did not fail');
}

describe('toDbRow', () => {
  const model = buildTableModel(context());

  it('accepts titles, column names and ids, ignores unknown keys and stamps times and users', () => {
    const count = model.columns.find((c) => c.title === 'Count')!;
    const row = toDbRow(model, { Title: 't', email: 'a@b.io', [count.id]: '7', nope: 1 }, { mode: 'insert', now, userId: 'us1' });
    expect(row).toEqual({
      title: 't', email: 'a@b.io', count: 7, created_at: '2024-01-02 03:04:05+00:00', updated_at: '2024-01-02 03:04:05+00:00',
      created_by: 'us1', updated_by: 'us1',
    });
  });

  it('refuses system and auto columns, requires required ones, and only objects', () => {
    expect(fails(() => toDbRow(model, { Title: 't', Id: 1 }, { mode: 'insert', now })).status).toBe(400);
    expect(fails(() => toDbRow(model, { Title: 't', nc_order: 1 }, { mode: 'insert', now })).message).toContain('nc_order');
    const missing = fails(() => toDbRow(model, { Count: 1 }, { mode: 'insert', now }));
    expect([missing.status, missing.code, missing.message]).toEqual([422, 'ERR_REQUIRED_FIELD_MISSING', "Field 'Title' is required"]);
    expect(fails(() => toDbRow(model, { Title: null }, { mode: 'update', now })).status).toBe(422);
    expect(toDbRow(model, { Count: 2 }, { mode: 'update', now })).toEqual({ count: 2, updated_at: '2024-01-02 03:04:05+00:00' });
    expect(fails(() => toDbRow(model, [1], { mode: 'insert', now })).status).toBe(400);
  });

  it('keeps keys out of bulk update rows', () => {
    expect(toDbRow(model, { Id: 3, Count: 1 }, { mode: 'update', now, allowKeys: true })).toMatchObject({ count: 1 });
  });
});

describe('row ids', () => {
  const model = buildTableModel(context());

  it('parses integer keys and rejects anything else without touching SQL', () => {
    expect(parseRowId(model, '12')).toEqual({ id: 12 });
    expect(parseRowId(model, '1;drop table')).toBeUndefined();
    expect(parseRowId(model, '1.5')).toBeUndefined();
    expect(keyOfBody(model, { Id: 4 })).toEqual({ id: 4 });
    expect(keyOfBody(model, { id: '5' })).toEqual({ id: 5 });
    expect(keyOfBody(model, {})).toBeUndefined();
  });

  it('splits composite ids on ___ with \\_ escapes', () => {
    expect(splitRowId('a\\_b___c')).toEqual(['a_b', 'c']);
  });
});

describe('presentRecord', () => {
  const model = buildTableModel(context());
  it('formats values per uidt and keys them by title', () => {
    const out = presentRecord(model.outputColumns, {
      id: 1, created_at: new Date(Date.UTC(2024, 0, 1, 10)), updated_at: '2024-01-01 10:00:00.123', title: 't', count: '5', price: '1.50',
      done: null, due: '2024-03-01', at: '2024-03-01 08:09:10', tags: 'a,b', files: '[{"url":"u"}]', status: null, email: null, code: null,
    });
    expect(out).toEqual({
      Id: 1, CreatedAt: '2024-01-01 10:00:00+00:00', UpdatedAt: '2024-01-01 10:00:00+00:00', Title: 't', Email: null, Count: 5, Price: 1.5,
      Done: false, Due: '2024-03-01', At: '2024-03-01 08:09:10+00:00', Status: null, Tags: 'a,b', Files: [{ url: 'u' }], Code: null,
    });
  });
});
