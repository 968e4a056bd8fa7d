import type { Knex } from 'knex';
import { lastSeq, prunedThrough, readFeed } from '../repositories/feed.repository';
import type { Subscription } from './feed-subscription';

const REPLAY_PAGE = 1000;

/**
 * Brings a just-registered subscription up to date: `reset` when its resume
 * id is older than the retained log (or not an id), else the log after that
 * id in pages of 1,000 (the next read while one goes out) at the client's
 * pace; then what queued live meanwhile, and it is live. Every seq at most
 * once, none skipped.
 */
export async function replay(db: Knex, sub: Subscription): Promise<void> {
  const from = sub.spec.lastEventId;
  const valid = from !== undefined && /^[0-9]{1,18}$/.test(from);
  let live = from === undefined;
  if (from !== undefined && (!valid || BigInt(from) <= BigInt(await prunedThrough(db)))) {
    sub.sink.reset();
    live = true;
  } else if (valid) {
    sub.handled = Number(from);
    const only = sub.spec.kind === 'table' ? { tableId: sub.spec.scopeId } : { baseId: sub.spec.scopeId };
    const page = (after: string) => {
      const read = readFeed(db, after, REPLAY_PAGE, only);
      read.catch(() => undefined); // awaited below, unless the stream closed meanwhile
      return read;
    };
    let next = page(String(sub.handled));
    for (;;) {
      const rows = await next;
      // the next page is read while this one goes out
      const more = rows.length === REPLAY_PAGE && !sub.closed;
      if (more) next = page(rows[rows.length - 1].seq);
      for (const row of rows) {
        // A replay goes at the client's pace (its backlog stays bounded); live events queue in `pending` meanwhile.
        while (sub.sink.backlogged() && !sub.closed) await sub.sink.drained();
        sub.deliver(row);
      }
      if (!more || sub.closed) break;
    }
  }
  if (live) sub.handled = Math.max(sub.handled, Number(await lastSeq(db)));
  sub.catchingUp = false;
  const queued = sub.pending;
  sub.pending = [];
  for (const row of queued) sub.deliver(row);
}
