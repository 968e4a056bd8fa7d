import knexFactory, { type Knex } from 'knex';
import type { TableContext } from '@tabula/contracts';
import type { EventBus, PublishInput } from '@tabula/events';
import { startDataHarness, type DataHarness } from './data-app.harness';
import { createTasksTable, tasksContext } from './table.fixture';
import { insertedBy, installTxLog } from './tx-log.fixture';
import { runOneStatementWrite, runWrite, type WriteOutcome } from '../src/domain/write-runner';
import type { RecordsChange } from '../src/events/records-event.producer';
import type { CommittedChange } from '../src/adapters/sync-hooks.client';
import type { TableHandle } from '../src/context/table-handle';
import type { DataPorts } from '../src/ports';

/**
 * The write runner driven directly (no HTTP, nothing written in beforeAll): on a default source a write's
 * `records.after.*` events are written by its own transaction (same transaction id as its rows), on an external one
 * right after its commit; then the table's cached count follows the write, the relay is asked to publish and each
 * table's synchronous hooks see their own changes. The counter, flusher and sync hooks are recording stand-ins (what
 * the runner asks of them is the property); the rows and the outbox are the real database's.
 */
const editor = { kind: 'user' as const, id: 'useditor0000001', email: 'ed@example.com', roles: [] };

let h: DataHarness;
let db: Knex;
let tasks: TableHandle;
let other: TableHandle;
let ext: TableHandle;

/** The context of `tasks` as another table (a link's other side) and on an external source. */
function renamed(ctx: TableContext, id: string, title: string): TableContext {
  return { ...ctx, table: { ...ctx.table, id, title, columns: ctx.table.columns.map((c) => ({ ...c, fk_model_id: id })), views: [] } };
}

beforeAll(async () => {
  h = await startDataHarness();
  db = knexFactory({ client: 'pg', connection: h.database.url });
  await createTasksTable(db, 'pbase');
  await createTasksTable(db, 'ext');
  await installTxLog(db, ['data.outbox']);
  h.apis.tables.set('tasks', tasksContext('pbase'));
  h.apis.tables.set('other', renamed(tasksContext('pbase'), 'mother00000000', 'Other'));
  h.apis.tables.set('ext', renamed(tasksContext('ext', { id: 'bsrcext0000001', is_meta: false, type: 'pg', connection: h.database.url }), 'mext0000000000', 'Ext'));
  tasks = await h.ports.tables.resolve('pbase0000000001', 'Tasks');
  other = await h.ports.tables.resolve('pbase0000000001', 'Other');
  ext = await h.ports.tables.resolve('pbase0000000001', 'Ext');
});
afterAll(async () => { await db?.destroy(); await h?.stop(); });

/** What the runner asked of the counter, the flusher, the sync hooks and the bus, in order. */
let calls: string[];
/** The ports with recording counter, flusher and sync hooks; `beforeHooks` is what the sync hooks client knows. */
function recordingPorts(beforeHooks = true): DataPorts {
  const bus = Object.create(h.ports.bus) as EventBus;
  bus.publish = async (inputs: PublishInput[]) => { calls.push(...inputs.map((i) => `publish ${i.type} ${i.key}`)); return h.ports.bus.publish(inputs); };
  return {
    ...h.ports,
    bus,
    counter: {
      writeStarted: async (tableId: string) => { calls.push(`started ${tableId}`); },
      writeEnded: (tableId: string, delta: number | undefined) => { calls.push(`ended ${tableId} ${String(delta)}`); },
    } as unknown as DataPorts['counter'],
    outboxFlusher: { request: () => { calls.push('flush'); } } as unknown as DataPorts['outboxFlusher'],
    syncHooks: {
      mayHaveBeforeHooks: (tableId: string) => { calls.push(`before hooks? ${tableId}`); return beforeHooks; },
      dispatch: async (table: TableHandle, committed: CommittedChange[]) => { calls.push(`dispatch ${table.tableId} ${committed.map((c) => `${c.type}:${c.change.op}`).join(',')}`); },
    } as unknown as DataPorts['syncHooks'],
  };
}
beforeEach(() => { calls = []; });

/** Outbox rows written after `seq` (the transaction that inserted each, type and key). */
async function outboxAfter(seq: number): Promise<{ tx: string; type: string; key: string; id: string }[]> {
  const rows = (await db('data.outbox').where('seq', '>', seq).orderBy('seq').select('type', 'key', 'id')) as { type: string; key: string; id: string }[];
  const txs = await insertedBy(db, 'data.outbox', rows.map((r) => r.id));
  return rows.map((r, i) => ({ tx: txs[i], ...r }));
}
const lastSeq = async () => Number((await db('data.outbox').max({ s: 'seq' }))[0].s ?? 0);
/** Inserts a row in the write's transaction, answering its id and that transaction's id. */
async function insertRow(trx: Knex.Transaction, table: string, title: string): Promise<{ id: number; tx: string }> {
  const [row] = await trx(table).insert({ title }).returning(['id', db.raw('xmin::text AS tx')]);
  return row as { id: number; tx: string };
}
const before: RecordsChange = { op: 'insert', rows: [{ Title: 'b' }], principal: editor };

describe('runWrite on a default source', () => {
  it('the rows and their event commit in one transaction; before it the before event, after it the count, the flush and the sync hooks', async () => {
    const seq = await lastSeq();
    let tx = '';
    const result = await runWrite(recordingPorts(), tasks, before, async (trx) => {
      calls.push('work');
      const row = await insertRow(trx, 'pbase.tasks', 'one');
      tx = row.tx;
      return { result: `stored ${row.id}`, change: { op: 'insert', rows: [{ Id: row.id, Title: 'one' }], principal: editor } };
    });
    expect(result).toMatch(/^stored \d+$/);
    expect(await outboxAfter(seq)).toEqual([{ tx, type: 'records.after.insert', key: tasks.tableId, id: expect.any(String) }]);
    expect(calls).toEqual([
      `before hooks? ${tasks.tableId}`, `publish records.before.insert ${tasks.tableId}`, `started ${tasks.tableId}`, 'work',
      `ended ${tasks.tableId} 1`, 'flush', `dispatch ${tasks.tableId} records.after.insert:insert`,
    ]);
  });

  it('no before event when none is given, nor when the table is known to have no before hook', async () => {
    const work = async (): Promise<WriteOutcome<number>> => ({ result: 1 });
    await runWrite(recordingPorts(true), tasks, undefined, work);
    expect(calls).toEqual([`started ${tasks.tableId}`, `ended ${tasks.tableId} 0`]);
    calls = [];
    await runWrite(recordingPorts(false), tasks, before, work);
    expect(calls).toEqual([`before hooks? ${tasks.tableId}`, `started ${tasks.tableId}`, `ended ${tasks.tableId} 0`]);
  });

  it('a failing write: its rows and event rolled back, the count told the write ended unknown, the error passed on, nothing announced', async () => {
    const seq = await lastSeq();
    const rows = Number((await db('pbase.tasks').count({ n: '*' }))[0].n);
    await expect(runWrite(recordingPorts(false), tasks, undefined, async (trx) => {
      await insertRow(trx, 'pbase.tasks', 'rolled back');
      throw new Error('refused late');
    })).rejects.toThrow('refused late');
    expect(Number((await db('pbase.tasks').count({ n: '*' }))[0].n)).toBe(rows);
    expect(await outboxAfter(seq)).toEqual([]);
    expect(calls).toEqual([`started ${tasks.tableId}`, `ended ${tasks.tableId} undefined`]);
  });

  it('a change of no rows announces nothing; one with only previous rows (a delete) is announced', async () => {
    const seq = await lastSeq();
    const ports = recordingPorts(false);
    await runWrite(ports, tasks, undefined, async () => ({ result: 0, change: { op: 'update', rows: [], principal: editor } }));
    await runWrite(ports, tasks, undefined, async () => ({ result: 0, change: [{ op: 'bulkDelete', rows: [] }, { op: 'deleteAll', rows: [], previousRows: [] }] }));
    expect(await outboxAfter(seq)).toEqual([]);
    expect(calls).toEqual([`started ${tasks.tableId}`, `ended ${tasks.tableId} 0`, `started ${tasks.tableId}`, `ended ${tasks.tableId} 0`]);
    calls = [];
    await runWrite(ports, tasks, undefined, async () => ({ result: 0, change: { op: 'update', rows: [], previousRows: [{ Id: 1 }] } }));
    expect((await outboxAfter(seq)).map((e) => e.type)).toEqual(['records.after.update']);
    expect(calls).toEqual([`started ${tasks.tableId}`, `ended ${tasks.tableId} 0`, 'flush', `dispatch ${tasks.tableId} records.after.update:update`]);
  });

  it('several changes: one event each in order, all in the transaction; each table dispatched its own; the count follows its own table only', async () => {
    const seq = await lastSeq();
    let tx = '';
    await runWrite(recordingPorts(false), tasks, undefined, async (trx) => {
      tx = (await insertRow(trx, 'pbase.tasks', 'several')).tx;
      return {
        result: null,
        change: [
          { op: 'bulkInsert', rows: [{ Id: 1 }, { Id: 2 }, { Id: 3 }] },
          { op: 'update', rows: [{ Id: 9 }], table: other },
          { op: 'bulkDelete', rows: [{ Id: 4 }] },
          { op: 'delete', rows: [{ Id: 5 }, { Id: 6 }], table: other },
          { op: 'insert', rows: [], table: other },
          { op: 'delete', rows: [{ Id: 7 }] },
        ],
      };
    });
    expect(await outboxAfter(seq)).toEqual([
      { tx, type: 'records.after.insert', key: tasks.tableId, id: expect.any(String) },
      { tx, type: 'records.after.update', key: other.tableId, id: expect.any(String) },
      { tx, type: 'records.after.delete', key: tasks.tableId, id: expect.any(String) },
      { tx, type: 'records.after.delete', key: other.tableId, id: expect.any(String) },
      { tx, type: 'records.after.delete', key: tasks.tableId, id: expect.any(String) },
    ]);
    // 3 inserted, 1 bulk-deleted and 1 deleted here; the other table's rows do not count
    expect(calls).toEqual([
      `started ${tasks.tableId}`, `ended ${tasks.tableId} 1`, 'flush',
      `dispatch ${tasks.tableId} records.after.insert:bulkInsert,records.after.delete:bulkDelete,records.after.delete:delete`,
      `dispatch ${other.tableId} records.after.update:update,records.after.delete:delete`,
    ]);
  });

  it('the count is told nothing definite after an update-all or a delete-all of its own table', async () => {
    for (const op of ['updateAll', 'deleteAll'] as const) {
      calls = [];
      await runWrite(recordingPorts(false), tasks, undefined, async () => ({ result: 0, change: [{ op: 'insert', rows: [{ Id: 1 }] }, { op, rows: [{ Id: 2 }] }] }));
      expect(calls.slice(0, 2)).toEqual([`started ${tasks.tableId}`, `ended ${tasks.tableId} undefined`]);
    }
    calls = [];
    // another table's delete-all leaves this table's delta known
    await runWrite(recordingPorts(false), tasks, undefined, async () => ({ result: 0, change: [{ op: 'deleteAll', rows: [{ Id: 2 }], table: other }, { op: 'insert', rows: [{ Id: 1 }] }] }));
    expect(calls.slice(0, 2)).toEqual([`started ${tasks.tableId}`, `ended ${tasks.tableId} 1`]);
  });
});

describe('runWrite on an external source', () => {
  it('the event is enqueued after the commit, in the data database (its own transaction), once', async () => {
    const seq = await lastSeq();
    let tx = '';
    const result = await runWrite(recordingPorts(false), ext, undefined, async (trx) => {
      tx = (await insertRow(trx, 'ext.tasks', 'external')).tx;
      return { result: 'ok', change: { op: 'insert', rows: [{ Id: 1 }] } };
    });
    expect(result).toBe('ok');
    const events = await outboxAfter(seq);
    expect(events.map((e) => [e.type, e.key])).toEqual([['records.after.insert', ext.tableId]]);
    expect(events[0].tx).not.toBe(tx);
    expect(calls).toEqual([`started ${ext.tableId}`, `ended ${ext.tableId} 1`, 'flush', `dispatch ${ext.tableId} records.after.insert:insert`]);
  });

  it('a change of no rows announces nothing; a failing write neither', async () => {
    const seq = await lastSeq();
    await runWrite(recordingPorts(false), ext, undefined, async () => ({ result: 0, change: { op: 'update', rows: [] } }));
    await expect(runWrite(recordingPorts(false), ext, undefined, async () => { throw new Error('refused'); })).rejects.toThrow('refused');
    expect(await outboxAfter(seq)).toEqual([]);
    expect(calls).toEqual([`started ${ext.tableId}`, `ended ${ext.tableId} 0`, `started ${ext.tableId}`, `ended ${ext.tableId} undefined`]);
  });
});

describe('runOneStatementWrite', () => {
  const committed = (change: RecordsChange, type = 'records.after.insert'): CommittedChange => ({ change, eventId: 'e', type });

  it('before event, count, flush and sync hooks around the one statement; the count from rowCount without reading the rows', async () => {
    const lazy: RecordsChange = { op: 'bulkInsert', rowCount: 2, get rows(): never { throw new Error('the rows were parsed to count them'); } };
    const result = await runOneStatementWrite(recordingPorts(true), tasks, before, async () => {
      calls.push('statement');
      return { result: 'inserted', committed: [committed(lazy)] };
    });
    expect(result).toBe('inserted');
    expect(calls).toEqual([
      `before hooks? ${tasks.tableId}`, `publish records.before.insert ${tasks.tableId}`, `started ${tasks.tableId}`, 'statement',
      `ended ${tasks.tableId} 2`, 'flush', `dispatch ${tasks.tableId} records.after.insert:bulkInsert`,
    ]);
  });

  it('no before event without a before hook; nothing committed: the count told 0, no flush, no dispatch', async () => {
    await runOneStatementWrite(recordingPorts(false), tasks, before, async () => ({ result: 0, committed: [] }));
    await runOneStatementWrite(recordingPorts(true), tasks, undefined, async () => ({ result: 0, committed: [] }));
    expect(calls).toEqual([`before hooks? ${tasks.tableId}`, `started ${tasks.tableId}`, `ended ${tasks.tableId} 0`, `started ${tasks.tableId}`, `ended ${tasks.tableId} 0`]);
  });

  it('a failing statement: the count told the write ended unknown, the error passed on, nothing announced', async () => {
    await expect(runOneStatementWrite(recordingPorts(false), tasks, undefined, async () => { throw new Error('statement refused'); })).rejects.toThrow('statement refused');
    expect(calls).toEqual([`started ${tasks.tableId}`, `ended ${tasks.tableId} undefined`]);
  });
});
