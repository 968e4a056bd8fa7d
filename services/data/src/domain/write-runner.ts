import type { Knex } from 'knex';
import type { TableHandle } from '../context/table-handle';
import { enqueueRecordsChanged, publishBefore, type RecordsChange } from '../events/records-event.producer';
import type { DataPorts } from '../ports';
import type { CommittedChange } from '../adapters/sync-hooks.client';

/** What a write's work answers: its result and the committed change(s) to announce (one event each). */
export interface WriteOutcome<T> {
  result: T;
  change?: RecordsChange | RecordsChange[];
}

function changesOf(out: WriteOutcome<unknown>): RecordsChange[] {
  const all = Array.isArray(out.change) ? out.change : out.change ? [out.change] : [];
  return all.filter((c) => c.rows.length + (c.previousRows?.length ?? 0) > 0);
}

/**
 * Runs a write in one transaction on the table's source. On default sources the
 * `records.after.*` event goes into the outbox in that same transaction (it
 * exists exactly when the rows changed). External sources live in another
 * database, so their event is enqueued right after the commit (a crash between
 * the two loses it: documented limit). `before` is published first (advisory;
 * skipped while the table is known to have no before hook: SyncHooksClient).
 */
export async function runWrite<T>(
  ports: DataPorts, handle: TableHandle, before: RecordsChange | undefined,
  work: (trx: Knex.Transaction) => Promise<WriteOutcome<T>>,
): Promise<T> {
  if (before && ports.syncHooks.mayHaveBeforeHooks(handle.tableId)) await publishBefore(ports.bus, ports.logger, handle, before);
  await ports.counter.writeStarted(handle.tableId);
  let done: { result: T; committed: CommittedChange[] };
  try {
    done = await runWriteTransaction(ports, handle, work);
  } catch (err) {
    ports.counter.writeEnded(handle.tableId, undefined);
    throw err;
  }
  await afterCommit(ports, handle, done.committed);
  return done.result;
}

async function runWriteTransaction<T>(
  ports: DataPorts, handle: TableHandle, work: (trx: Knex.Transaction) => Promise<WriteOutcome<T>>,
): Promise<{ result: T; committed: CommittedChange[] }> {
  let committed: CommittedChange[] = [];
  const enqueueAll = async (trx: Knex.Transaction, changes: RecordsChange[]) => {
    committed = [];
    for (const change of changes) committed.push(await enqueueRecordsChanged(trx, change.table ?? handle, change));
  };
  const outcome = await handle.source.knex.transaction(async (trx) => {
    const out = await work(trx);
    if (handle.source.sharesOutboxDatabase) await enqueueAll(trx, changesOf(out));
    return out;
  });
  const changes = changesOf(outcome);
  if (changes.length && !handle.source.sharesOutboxDatabase) await ports.dataDb.transaction((trx) => enqueueAll(trx, changes));
  return { result: outcome.result, committed };
}

/**
 * A write that is one atomic statement carrying its own outbox row
 * (insert-with-outbox.repository.ts): no BEGIN/COMMIT round trips.
 */
export async function runOneStatementWrite<T>(
  ports: DataPorts, handle: TableHandle, before: RecordsChange | undefined,
  work: () => Promise<{ result: T; committed: CommittedChange[] }>,
): Promise<T> {
  if (before && ports.syncHooks.mayHaveBeforeHooks(handle.tableId)) await publishBefore(ports.bus, ports.logger, handle, before);
  await ports.counter.writeStarted(handle.tableId);
  let outcome: { result: T; committed: CommittedChange[] };
  try {
    outcome = await work();
  } catch (err) {
    ports.counter.writeEnded(handle.tableId, undefined);
    throw err;
  }
  await afterCommit(ports, handle, outcome.committed);
  return outcome.result;
}

/** Rows a write added to its own table (inserted minus deleted); undefined when unknown (update-all, delete-all). */
function rowDelta(handle: TableHandle, committed: CommittedChange[]): number | undefined {
  let delta = 0;
  for (const { change } of committed) {
    if ((change.table ?? handle) !== handle) continue;
    if (change.op === 'insert' || change.op === 'bulkInsert') delta += change.rowCount ?? change.rows.length;
    else if (change.op === 'delete' || change.op === 'bulkDelete') delta -= change.rows.length;
    else if (change.op === 'deleteAll' || change.op === 'updateAll') return undefined;
  }
  return delta;
}

/**
 * After a commit: cached counts of the table follow the write (RowCounter.applyWrite), the relay is asked to publish
 * (off the request path: OutboxFlusher), and each table's synchronous hooks
 * see their own table's changes (a link changes both sides; SyncHooksDispatcher
 * makes no call for tables known to have none).
 */
async function afterCommit(ports: DataPorts, handle: TableHandle, committed: CommittedChange[]): Promise<void> {
  ports.counter.writeEnded(handle.tableId, rowDelta(handle, committed));
  if (!committed.length) return;
  ports.outboxFlusher.request();
  for (const table of new Set([handle, ...committed.map((c) => c.change.table ?? handle)])) {
    await ports.syncHooks.dispatch(table, committed.filter((c) => (c.change.table ?? handle) === table));
  }
}
