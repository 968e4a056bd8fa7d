import type { Knex } from 'knex';
import { FeedHub, type FeedHubOptions } from '../src/domain/feed-hub';
import { WriteBatch, type Flushable } from '../src/domain/feed-output';

/** What a chunked HTTP/1.1 body carries: the chunks' contents, joined (the parser's view). */
function dechunk(body: Buffer): string {
  let out = '';
  let at = 0;
  while (at < body.length) {
    const lf = body.indexOf('\r\n', at);
    const size = parseInt(body.toString('latin1', at, lf), 16);
    out += body.toString('utf8', lf + 2, lf + 2 + size);
    expect(body.toString('latin1', lf + 2 + size, lf + 4 + size)).toBe('\r\n');
    at = lf + 4 + size;
  }
  return out;
}

describe('WriteBatch.joined (one batch of frames, shared by alike streams)', () => {
  const frame = (text: string) => Buffer.from(text);
  const a = frame('id: 1\nevent: records.after.insert\ndata: {"é":1}\n\n');
  const b = frame('id: 2\nevent: records.after.insert\ndata: {"x":2}\n\n');

  it('frames the bytes as one HTTP chunk (UTF-8 length in hex), or joins them plainly', () => {
    const writes = new WriteBatch();
    const chunk = writes.joined([a, b], a.length + b.length, true);
    expect(chunk.toString('latin1', 0, chunk.indexOf('\r\n'))).toBe((a.length + b.length).toString(16));
    expect(dechunk(chunk)).toBe(`${a.toString()}${b.toString()}`);
    expect(writes.joined([a, b], a.length + b.length, false).toString()).toBe(`${a.toString()}${b.toString()}`);
    expect(dechunk(writes.joined([a], a.length, true))).toBe(a.toString());
  });

  it('hands streams with the same frames the same Buffer, and others their own', () => {
    const writes = new WriteBatch();
    const first = writes.joined([a, b], a.length + b.length, true);
    expect(writes.joined([a, b], a.length + b.length, true)).toBe(first);
    const other = writes.joined([b], b.length, true);
    expect(other).not.toBe(first);
    expect(dechunk(other)).toBe(b.toString());
    // same contents in other Buffers (another filter's output): not assumed equal
    const copy = writes.joined([frame(a.toString()), b], a.length + b.length, true);
    expect(copy).not.toBe(first);
    expect(dechunk(copy)).toBe(`${a.toString()}${b.toString()}`);
  });

  it('counts the targets of its last flush', async () => {
    const writes = new WriteBatch();
    const flushed: number[] = [];
    const targets: Flushable[] = [1, 2, 3].map((n) => ({ flush: () => flushed.push(n) }));
    for (const t of targets) writes.add(t);
    await new Promise((resolve) => setImmediate(resolve));
    expect(flushed).toEqual([1, 2, 3]);
    expect(writes.lastWrites).toBe(3);
  });
});

describe('FeedHub.batchGap (reads spread apart when a batch goes to many clients)', () => {
  const hub = (options: Partial<FeedHubOptions>) => new FeedHub({ db: {} as Knex, ...options } as FeedHubOptions);

  it('is SVC_FEED_BATCH_MS for few writes, grows with the last batch\'s writes, and stops at SVC_FEED_BATCH_MAX_MS', () => {
    const h = hub({ batchMs: 20, batchMaxMs: 40, writesPerSecond: 25_000 });
    h.writes.lastWrites = 10;
    expect(h.batchGap()).toBe(20);
    h.writes.lastWrites = 750; // 750 writes at 25,000/s: 30 ms
    expect(h.batchGap()).toBe(30);
    h.writes.lastWrites = 5000;
    expect(h.batchGap()).toBe(40);
  });

  it('is a fixed SVC_FEED_BATCH_MS when the most is not above it or no budget is set', () => {
    const fixed = hub({ batchMs: 20, batchMaxMs: 20, writesPerSecond: 25_000 });
    fixed.writes.lastWrites = 5000;
    expect(fixed.batchGap()).toBe(20);
    const unset = hub({ batchMs: 20 });
    unset.writes.lastWrites = 5000;
    expect(unset.batchGap()).toBe(20);
  });
});
