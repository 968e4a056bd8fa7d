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
 * process (setImmediate), not one timer per stream. The bytes of one batch are
 * built once for every stream that queued the same frames (alike streams: same
 * `where` and `fields`, all live): {@link joined} hands them all one Buffer.
 */
export class WriteBatch {
  private waiting: Flushable[] = [];
  private scheduled = false;
  /** The frames last joined and their bytes (plain, and as one HTTP/1.1 chunk): reused while the next stream's frames are the same. */
  private lastFrames: Buffer[] | undefined;
  private lastPlain: Buffer | undefined;
  private lastChunk: Buffer | undefined;
  /** How many targets the last flush wrote to (the hub spaces its reads by it). */
  lastWrites = 0;

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
    this.lastWrites = list.length;
    for (const target of list) target.flush();
    this.lastFrames = this.lastPlain = this.lastChunk = undefined;
  }

  /**
   * `frames` (`bytes` long in all) as one Buffer, or, `chunk`, as one HTTP/1.1
   * chunk (`<hex length>\r\n…\r\n`: what a chunked response's write sends,
   * for a stream written straight to its socket). Built once for consecutive
   * streams with the same frames (the same Buffers in the same order).
   */
  joined(frames: Buffer[], bytes: number, chunk: boolean): Buffer {
    const last = this.lastFrames;
    let same = last !== undefined && last.length === frames.length;
    for (let i = 0; same && i < frames.length; i += 1) same = last![i] === frames[i];
    if (!same) {
      this.lastFrames = frames;
      this.lastPlain = this.lastChunk = undefined;
    }
    if (!chunk) return this.lastPlain ??= frames.length === 1 ? frames[0] : Buffer.concat(frames, bytes);
    if (this.lastChunk) return this.lastChunk;
    const head = `${bytes.toString(16)}\r\n`;
    const out = Buffer.allocUnsafe(head.length + bytes + 2);
    let at = out.write(head, 0, 'latin1');
    for (const frame of frames) at += frame.copy(out, at);
    out[at] = 13;
    out[at + 1] = 10;
    return this.lastChunk = out;
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
