import { buildPayload } from './payload-builder';
import { hookMatchesOperation, selectRows } from './match-hooks';

const facts = { event: 'after', baseId: 'p1', tableId: 'm1', tableTitle: 'Items' };

describe('payload builder (compat-notes "Hooks")', () => {
  it('v1 is the record itself, an array for bulk; nc_order removed', () => {
    expect(buildPayload('v1', { ...facts, operation: 'insert', rows: [{ Id: 1, nc_order: 1 }] })).toEqual({ Id: 1 });
    expect(buildPayload('v1', { ...facts, operation: 'bulkInsert', rows: [{ Id: 1 }, { Id: 2 }] })).toEqual([{ Id: 1 }, { Id: 2 }]);
  });
  it('v2 keeps bulk names and rows_inserted; v3 folds them', () => {
    const v2 = buildPayload('v2', { ...facts, operation: 'bulkInsert', rows: [{ Id: 1 }] }) as Record<string, unknown>;
    expect(v2).toMatchObject({ type: 'records.after.bulkInsert', base_id: 'p1', version: 'v2', data: { table_id: 'm1', table_name: 'Items', rows: [{ Id: 1 }], rows_inserted: 1 } });
    expect(v2.id).toMatch(/^[0-9a-f-]{36}$/);
    const v3 = buildPayload('v3', { ...facts, operation: 'updateAll', rows: [{ Id: 1, A: 2 }], previousRows: [{ Id: 1, A: 1 }] });
    expect(v3).toMatchObject({ type: 'records.after.update', data: { previous_rows: [{ Id: 1, A: 1 }], rows: [{ Id: 1, A: 2 }] } });
  });
  it('matches operations per version', () => {
    expect(hookMatchesOperation({ version: 'v3', operation: ['insert'] }, 'bulkInsert')).toBe(true);
    expect(hookMatchesOperation({ version: 'v2', operation: 'insert' }, 'bulkInsert')).toBe(false);
    expect(hookMatchesOperation({ version: 'v2', operation: 'bulkUpdate' }, 'updateAll')).toBe(true);
    expect(hookMatchesOperation({ version: 'v1', operation: 'delete' }, 'delete')).toBe(true);
  });
  it('trigger fields keep only rows where one of them changed', () => {
    const hook = { trigger_field: true, trigger_fields: ['c2'] } as never;
    const cols = [{ id: 'c1', title: 'A', column_name: 'a', uidt: 'SingleLineText' }, { id: 'c2', title: 'B', column_name: 'b', uidt: 'Number' }];
    const picked = selectRows(hook, 'bulkUpdate', { rows: [{ A: 'x', B: 1 }, { A: 'y', B: 3 }], previousRows: [{ A: 'o', B: 1 }, { A: 'y', B: 2 }] }, cols, null);
    expect(picked.rows).toEqual([{ A: 'y', B: 3 }]);
    expect(picked.previousRows).toEqual([{ A: 'y', B: 2 }]);
  });
});
