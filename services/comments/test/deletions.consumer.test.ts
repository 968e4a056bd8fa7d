import request from 'supertest';
import { randomUUID } from 'node:crypto';
import { ChangeAction, RecordOperation, RecordsChangedSchema, TableChangedSchema, encodeEvent, topics } from '@tabula/contracts';
import type { EventMessage } from '@tabula/events';
import { handleDeletion } from '../src/consumers/deletions.consumer';
import { rowIdOfEventRow } from '../src/domain/purge/record-deleted';
import { startCommentsHarness, type CommentsHarness } from './comments-app.harness';

let h: CommentsHarness;
const table = { id: 'mconsumertable01', baseId: 'pconsumerbase001', sourceId: 'bconsumersrc0001' };
const owner = { id: 'usowner000000001', email: 'owner@example.com' };

const message = (type: string, payload: Uint8Array, id: string = randomUUID()): EventMessage => ({
  id, topic: type.startsWith('meta.') ? topics.meta : topics.records, key: table.id, type, version: 1, payload, headers: {}, timestamp: new Date().toISOString(),
});
const tableDeleted = (id: string) => message('meta.table.deleted', encodeEvent(TableChangedSchema, {
  eventId: id, action: ChangeAction.DELETED, baseId: table.baseId, tableId: table.id, tableTitle: 'T',
}), id);
const recordsDeleted = (id: string, rows: unknown[]) => message('records.after.delete', encodeEvent(RecordsChangedSchema, {
  eventId: id, type: 'records.after.delete', operation: RecordOperation.BULK_DELETE, baseId: table.baseId, tableId: table.id, rowsJson: JSON.stringify(rows),
}), id);

const comment = async (rowId: string, text: string) => {
  const res = await request(h.app.callback()).post('/api/v1/db/meta/comments').set(h.as(owner)).send({ fk_model_id: table.id, row_id: rowId, comment: text });
  expect(res.status).toBe(200);
  return res.body.id as string;
};
const rows = (where: Record<string, unknown>) => h.shared.db.withSchema('comments').table('comments').where(where);
const outboxDeletes = async () => Number((await h.shared.db.withSchema('comments').table('outbox').where({ type: 'comments.comment.deleted' }).count({ n: '*' }))[0].n);

beforeAll(async () => {
  h = await startCommentsHarness();
  h.world.tables.set(table.id, table);
  h.world.roles.set(`${table.baseId}:${owner.id}`, 'owner');
  for (const id of ['1', '2', '3']) h.world.records.add(`${table.id}/${id}`);
}, 60_000);
afterAll(async () => { await h?.stop(); });

describe('deletion consumers', () => {
  it('records.after.delete soft-deletes the rows\' comments once per event id', async () => {
    const a = await comment('1', 'a');
    const b = await comment('2', 'b');
    const keep = await comment('3', 'keep');
    const evt = recordsDeleted(randomUUID(), [{ Id: 1, Title: 'x' }, { Id: 2, Title: 'y' }, { Title: 'no key' }]);
    await handleDeletion(h.ports, evt);
    expect((await rows({ is_deleted: true })).map((r) => r.id).sort()).toEqual([a, b].sort());
    expect((await rows({ id: keep }))[0].is_deleted).toBe(false);
    expect(await outboxDeletes()).toBe(2);
    // redelivered (at-least-once bus): nothing more happens, no second event
    await h.shared.db.withSchema('comments').table('comments').where({ id: a }).update({ is_deleted: false });
    await handleDeletion(h.ports, evt);
    expect((await rows({ id: a }))[0].is_deleted).toBe(false);
    expect(await outboxDeletes()).toBe(2);
  });

  it('meta.table.deleted purges for good, once per event id; later comments on the table are refused', async () => {
    await comment('3', 'more');
    const evt = tableDeleted(randomUUID());
    await handleDeletion(h.ports, evt);
    expect(await rows({ fk_model_id: table.id })).toEqual([]);
    // a row put back by hand survives a redelivery of the same event: the consumer dedupes on the id
    await h.shared.db.withSchema('comments').table('comments').insert({
      id: 'comreinserted0001', base_id: table.baseId, source_id: table.sourceId, fk_model_id: table.id, row_id: '3', comment: 'x', created_by: owner.id,
    });
    await handleDeletion(h.ports, evt);
    expect(await rows({ fk_model_id: table.id })).toHaveLength(1);
    // the table is still known to (stale) meta here, yet the tombstone refuses new comments
    const late = await request(h.app.callback()).post('/api/v1/db/meta/comments').set(h.as(owner)).send({ fk_model_id: table.id, row_id: '3', comment: 'late' });
    expect(late.status).toBe(404);
    expect(late.body.error).toBe('ERR_TABLE_NOT_FOUND');
  });

  it('a delete-all naming 70,000 records (more than PostgreSQL bind parameters) is handled', async () => {
    const big = Array.from({ length: 70_000 }, (_, i) => ({ Id: i + 1000 }));
    await expect(handleDeletion(h.ports, recordsDeleted(randomUUID(), big))).resolves.toBeUndefined();
  });

  it('events of a table meta no longer knows, and unrelated types, are no-ops', async () => {
    const gone = message('records.after.delete', encodeEvent(RecordsChangedSchema, { eventId: randomUUID(), tableId: 'm_gone', rowsJson: '[{"Id":1}]' }));
    await expect(handleDeletion(h.ports, gone)).resolves.toBeUndefined();
    await expect(handleDeletion(h.ports, message('records.after.insert', new Uint8Array()))).resolves.toBeUndefined();
  });

  it('row ids of event rows follow the records API (composite parts joined with ___, _ escaped)', () => {
    expect(rowIdOfEventRow([{ title: 'Id', column_name: 'id' }], { Id: 7 })).toBe('7');
    expect(rowIdOfEventRow([{ title: 'A', column_name: 'a' }, { title: 'B', column_name: 'b' }], { A: 'x_y', B: 2 })).toBe('x\\_y___2');
    expect(rowIdOfEventRow([{ title: 'Id', column_name: 'id' }], { Other: 1 })).toBeUndefined();
  });
});
