import { isRefusedStatement } from '@tabula/db';
import type { TableHandle } from '../context/table-handle';
import { batchKeyOf, insertBatchWithOutbox, insertWithOutbox, type InsertPlan } from './insert-with-outbox.repository';
import type { Db } from './db';

/** Single-row inserts that go into one statement at most. */
export const MAX_INSERT_BATCH = 64;

interface Waiting {
  plan: InsertPlan;
  resolve(json: string): void;
  reject(err: unknown): void;
}

interface Batch {
  db: Db;
  waiting: Waiting[];
  closed: boolean;
}

/** Open batches per table handle and batch key (a new handle after a metadata change starts empty). */
const open = new WeakMap<TableHandle, Map<string, Batch>>();

/**
 * One single-row insert with its outbox row ({@link insertWithOutbox}),
 * batched with the other single-row inserts of the same table and columns
 * that reach this point in the same turn of the event loop (group commit):
 * they run as one statement ({@link insertBatchWithOutbox}), each keeping its
 * own row, record and event, so concurrent writers share one round trip, one
 * statement and one commit. A lone insert runs as before. The batch closes
 * when the loop moves on (`setImmediate`: no timer, no added wait when idle)
 * or at {@link MAX_INSERT_BATCH}.
 *
 * All or nothing per request, as without batching: when PostgreSQL refuses
 * the batch (a unique or check violation of one row, say), nothing of it
 * committed, and every insert of it runs again on its own, so each gets its
 * own answer and the others still succeed. Any other failure (connection
 * lost while waiting for the answer, when the batch may have committed) is
 * every member's error, never retried, so nothing is inserted twice.
 */
export function insertOneWithOutbox(db: Db, handle: TableHandle, plan: InsertPlan): Promise<string> {
  const key = batchKeyOf(plan);
  let perTable = open.get(handle);
  if (!perTable) {
    perTable = new Map();
    open.set(handle, perTable);
  }
  let batch = perTable.get(key);
  if (batch && batch.db !== db) close(handle, key, batch);
  if (!batch || batch.closed) {
    const fresh: Batch = { db, waiting: [], closed: false };
    batch = fresh;
    perTable.set(key, fresh);
    setImmediate(() => close(handle, key, fresh));
  }
  const target = batch;
  return new Promise<string>((resolve, reject) => {
    target.waiting.push({ plan, resolve, reject });
    if (target.waiting.length >= MAX_INSERT_BATCH) close(handle, key, target);
  });
}

/** Runs a batch once: when the loop moves on, when it is full, or when another replaces it. */
function close(handle: TableHandle, key: string, batch: Batch): void {
  if (batch.closed) return;
  batch.closed = true;
  const perTable = open.get(handle);
  if (perTable?.get(key) === batch) perTable.delete(key);
  void run(handle, batch);
}

async function run(handle: TableHandle, { db, waiting }: Batch): Promise<void> {
  if (waiting.length === 1) return alone(db, handle, waiting[0]);
  let answers: string[];
  try {
    answers = await insertBatchWithOutbox(db, handle, waiting.map((w) => w.plan));
  } catch (err) {
    if (!isRefusedStatement(err)) {
      for (const w of waiting) w.reject(err);
      return;
    }
    await Promise.all(waiting.map((w) => alone(db, handle, w)));
    return;
  }
  waiting.forEach((w, i) => w.resolve(answers[i]));
}

async function alone(db: Db, handle: TableHandle, w: Waiting): Promise<void> {
  try {
    w.resolve((await insertWithOutbox(db, handle, w.plan)).join(''));
  } catch (err) {
    w.reject(err);
  }
}
