import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { createKnex, runMigrations } from '@tabula/db';
import { createLogger } from '@tabula/telemetry';
import { createTestDatabase, type TestDatabase } from '@tabula/testing';
import type { Principal } from '@tabula/auth';
import { migrations } from '../migrations';
import { REALTIME_SCHEMA } from '../src/repositories/realtime-db';
import { appendFeedEvents, type FeedAppend } from '../src/repositories/feed.repository';
import { FeedHub, type FeedSink } from '../src/domain/feed-hub';
import type { FeedOut } from '../src/domain/feed-output';

/**
 * The hub's reads of the feed log on real PostgreSQL (LISTEN/NOTIFY): the rows
 * this process appends reach its streams without being read back, although
 * their notification usually arrives before the append's answer; a row another
 * replica appends while this one's append is under way is still read and sent,
 * in seq order.
 */
let database: TestDatabase;
let db: Knex;
const reads: string[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  db = createKnex({ url: database.url, poolMax: 6 });
  await db.raw('CREATE SCHEMA IF NOT EXISTS ??', [REALTIME_SCHEMA]);
  await runMigrations(db, REALTIME_SCHEMA, migrations);
  db.on('query', (q: { sql: string }) => { if (/from "realtime"\."feed" where "seq" >/.test(q.sql)) reads.push(q.sql); });
});
afterAll(async () => {
  await db?.destroy();
  await database?.drop();
});

const principal = { id: 'u1', email: 'u1@example.com', roles: ['org-level-creator'] } as unknown as Principal;

function entry(tableId: string, title: string): FeedAppend {
  return {
    eventId: randomUUID(), type: 'records.after.insert', baseId: 'b1', tableId,
    data: { type: 'records.after.insert', base_id: 'b1', table_id: tableId, table_name: 'T', at: new Date().toISOString(), actor: {}, rows: [{ Title: title }] },
  } as FeedAppend;
}

/** A sink that records the titles it was sent, in order. */
function recordingSink(): FeedSink & { titles: string[] } {
  const titles: string[] = [];
  return {
    titles,
    event: (out: FeedOut) => { titles.push(String((out.event.rows as { Title: string }[])[0].Title)); return true; },
    backlogged: () => false,
    drained: () => Promise.resolve(),
    reset: () => undefined,
    end: () => undefined,
  };
}

async function startedHub(): Promise<FeedHub> {
  const hub = new FeedHub({
    db, logger: createLogger('realtime-test', 'silent'),
    baseAccess: { roleOf: () => Promise.resolve('owner'), invalidate: () => undefined } as never,
    retentionMs: 3_600_000, heartbeatMs: 60_000, maxPerPrincipal: 10,
    loadWhere: () => Promise.resolve(undefined),
    // no poll during the test: every read is one the hub chose
    pollMs: 600_000,
  });
  await hub.start();
  return hub;
}

/**
 * Runs `test` with a started hub and one table stream on `tableId` (reads of
 * the log counted from then on); stops the hub after it.
 */
async function withStream(tableId: string, test: (hub: FeedHub, sink: ReturnType<typeof recordingSink>) => Promise<void>): Promise<void> {
  const hub = await startedHub();
  try {
    const sink = recordingSink();
    await hub.open({ principal, kind: 'table', scopeId: tableId, baseId: 'b1' }, sink);
    reads.length = 0;
    await test(hub, sink);
  } finally {
    await hub.stop();
  }
}

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('the feed hub and its own appends', () => {
  it('sends the rows this process appends without reading them back', () => withStream('t-own', async (hub, sink) => {
    for (let i = 0; i < 30; i += 1) {
      await hub.append(() => appendFeedEvents(db, [entry('t-own', `own${i}`)]));
      await new Promise((r) => setTimeout(r, 5));
    }
    await until(() => sink.titles.length === 30, '30 events');
    await new Promise((r) => setTimeout(r, 100));
    expect(sink.titles).toEqual(Array.from({ length: 30 }, (_, i) => `own${i}`));
    expect(reads).toEqual([]);
  }));

  it('reads, and sends in order, a row another replica appended while its own append was under way', () => withStream('t-mixed', async (hub, sink) => {
    // this process's append holds until the other replica's row is in the log (and notified)
    let letGo!: () => void;
    const held = new Promise<void>((resolve) => { letGo = resolve; });
    const own = hub.append(async () => { await held; return appendFeedEvents(db, [entry('t-mixed', 'own-after')]); });
    await appendFeedEvents(db, [entry('t-mixed', 'other')]);
    // the other's row goes out after the hold at most, although the own append is still under way
    await until(() => sink.titles.length === 1, "the other replica's row");
    expect(sink.titles).toEqual(['other']);
    expect(reads.length).toBeGreaterThanOrEqual(1);
    letGo();
    await own;
    await until(() => sink.titles.length === 2, 'both rows');
    expect(sink.titles).toEqual(['other', 'own-after']);
  }));
});
