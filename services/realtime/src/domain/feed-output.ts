import type { Writable } from 'node:stream';
import type { FeedEvent } from '@tabula/contracts';
import type { FeedRow } from '../repositories/feed.repository';
import { applyFilter, type CompiledWhere } from './feed-filter';

/** SSE framing of one event: `id:`, `event:`, `data:` (one line of JSON: `json`, the event's JSON text). */
export function sseFrame(seq: string, event: FeedEvent, json = JSON.stringify(event)): string {
  return `id: ${seq}\nevent: ${event.type}\ndata: ${json}\n\n`;
}

/**
 * One event as a group of alike streams sends it (same row, same `where`,
 * same `fields`): filtered, serialized and framed once, whatever the number
 * of streams it goes to.
 */
export class FeedOut {
  private frame: Buffer | undefined;

  constructor(readonly seq: string, readonly event: FeedEvent, readonly json: string) {}

  /** Its SSE frame, encoded once and written as is to every stream. */
  get sse(): Buffer {
    return this.frame ??= Buffer.from(sseFrame(this.seq, this.event, this.json));
  }
}

const whereIds = new WeakMap<CompiledWhere, number>();
let nextWhereId = 0;

/** The key of a `where` and `fields` pair: streams with the same key get the same output of a row. */
export function filterKey(where: CompiledWhere | undefined, fields: string[] | undefined): string {
  let id = 0;
  if (where) {
    id = whereIds.get(where) ?? 0;
    if (!id) whereIds.set(where, id = nextWhereId += 1);
  }
  return fields ? `${id}\u0000${fields.join('\u0000')}` : String(id);
}

/** What a row becomes through `where` and `fields` (`key`: {@link filterKey}): made once per row and key; null when filtered out. */
export function outputOf(row: FeedRow, key: string, where: CompiledWhere | undefined, fields: string[] | undefined): FeedOut | null {
  const memo = (row.memo ??= new Map()) as Map<string, FeedOut | null>;
  let out = memo.get(key);
  if (out === undefined) {
    const full = { id: row.seq, ...row.data } as FeedEvent;
    const event = applyFilter(full, where, fields);
    out = event ? new FeedOut(row.seq, event, JSON.stringify(event)) : null;
    memo.set(key, out);
  }
  return out;
}

/** Something holding output to write: a stream's frames, a socket's corked writes. */
export interface Flushable {
  flush(): void;
}

/**
 * Writes that wait for the end of the current batch of rows: a stream queues
 * the frames of the rows dispatched in one go and writes them with one write
 * (one system call per client per batch, not per event). One check per
 * process (setImmediate), not one timer per stream.
 */
export class WriteBatch {
  private waiting: Flushable[] = [];
  private scheduled = false;

  /** Flushes `target` once the current batch is dispatched (call once per batch: a target tracks whether it is queued). */
  add(target: Flushable): void {
    this.waiting.push(target);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  /** Writes out everything queued now. */
  flush(): void {
    this.scheduled = false;
    const list = this.waiting;
    this.waiting = [];
    for (const target of list) target.flush();
  }
}

/**
 * Resolves when `stream` is no longer `backlogged` (or closed): on its
 * 'drain', which comes only after a write past its high-water mark, so below
 * that mark (a bound smaller than it) it looks again after a moment.
 */
export function drainedOf(stream: Pick<Writable, 'writableNeedDrain' | 'once' | 'off'>, backlogged: () => boolean): Promise<void> {
  if (!backlogged()) return Promise.resolve();
  return new Promise<void>((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    const done = () => { clearTimeout(timer); stream.off('drain', done); stream.off('close', done); resolve(); };
    stream.once('drain', done);
    stream.once('close', done);
    if (!stream.writableNeedDrain) timer = setTimeout(done, 20);
  });
}
