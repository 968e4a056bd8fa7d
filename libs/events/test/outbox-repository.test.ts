import { randomBytes, randomUUID } from 'node:crypto';
import knexFactory from 'knex';
import type { Knex } from 'knex';
import { createTestDatabase } from '@tabula/testing';
import type { TestDatabase } from '@tabula/testing';
import { enqueueEvent, outboxMigration } from '@tabula/events';
import type { PublishInput } from '@tabula/events';
import {
  PAYLOAD_PART_BYTES, deletePublishedBefore, joinClaimedParts, outboxLag, recordFailure, relayBatch, toPublishInput, type OutboxRow,
} from '../src/outbox/outbox.repository';

const SCHEMA = 'repo';

/**
 * The outbox repository's statements driven directly (no relay, no drain loop): what a batch claims, publishes and
 * marks, what a failure leaves, the cleanup, the lag and the bus message of a row. A broken statement fails here at
 * once instead of making a relay loop (the relay's own tests: outbox-relay.test.ts, outbox.test.ts).
 */
describe('outbox repository', () => {
  let database: TestDatabase;
  let knex: Knex;
  const outbox = () => knex.withSchema(SCHEMA).table('outbox');
  const event = (body: string | Uint8Array = 'x', extra: Partial<PublishInput> = {}): PublishInput => ({
    topic: 't', key: 'k', type: 'records.after.insert', payload: typeof body === 'string' ? new Uint8Array(Buffer.from(body)) : body, ...extra,
  });
  const enqueue = (...inputs: PublishInput[]): Promise<string[]> => knex.transaction(async (trx) => {
    const ids: string[] = [];
    for (const input of inputs) ids.push(await enqueueEvent(trx, SCHEMA, input));
    return ids;
  });
  /** One batch, keeping what publish saw. */
  const batch = async (limit: number, publish: (rows: OutboxRow[]) => Promise<void> = async () => undefined, on: Knex = knex) => {
    const seen: OutboxRow[][] = [];
    const n = await relayBatch(on, SCHEMA, limit, async (rows) => { seen.push(rows); await publish(rows); });
    return { n, seen };
  };
  const unpublished = async () => (await outbox().whereNull('published_at').orderBy('seq').select('id')).map((r) => r.id as string);

  beforeAll(async () => {
    database = await createTestDatabase();
    knex = knexFactory({ client: 'pg', connection: database.url, pool: { min: 0, max: 4 } });
    await knex.raw(`CREATE SCHEMA ${SCHEMA}`);
    await outboxMigration(knex, SCHEMA);
  });
  afterAll(async () => {
    await knex?.destroy();
    await database?.drop();
  });
  beforeEach(async () => {
    await outbox().delete();
  });

  it('an empty outbox: the batch claims nothing, publishes nothing, answers 0 and ends its transaction', async () => {
    const single = knexFactory({ client: 'pg', connection: database.url, pool: { min: 1, max: 1 } });
    try {
      expect(await batch(5, undefined, single)).toEqual({ n: 0, seen: [] });
      const { rows } = await single.raw("SELECT txid_current_if_assigned() AS tx, now() = statement_timestamp() AS fresh, current_setting('enable_bitmapscan') AS bitmap");
      expect(rows[0]).toEqual({ tx: null, fresh: true, bitmap: 'on' });
    } finally {
      await single.destroy();
    }
  });

  it('claims the oldest unpublished rows in seq order up to the limit, publishes them whole and marks exactly those sent', async () => {
    const headers = { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' };
    const ids = await enqueue(event('a', { headers }), event('bb', { key: 'k2', version: 3 }), event('ccc'), event('dddd'));
    const first = await batch(3);
    expect(first.n).toBe(3);
    expect(first.seen).toHaveLength(1);
    expect(first.seen[0].map((r) => r.id)).toEqual(ids.slice(0, 3));
    expect(first.seen[0].map((r) => Buffer.from(r.payload).toString())).toEqual(['a', 'bb', 'ccc']);
    expect(first.seen[0][0]).toMatchObject({ topic: 't', key: 'k', type: 'records.after.insert', version: 1 });
    expect(first.seen[0][0].headers).toMatchObject(headers);
    expect(first.seen[0][1]).toMatchObject({ key: 'k2', version: 3 });
    expect(await unpublished()).toEqual([ids[3]]);
    const marked = await outbox().whereIn('id', ids.slice(0, 3)).select('attempts', 'last_error', 'published_at');
    for (const row of marked) expect(row).toMatchObject({ attempts: 1, last_error: null, published_at: expect.any(Date) });
    // the last one, then nothing
    expect((await batch(3)).seen.map((rows) => rows.map((r) => r.id))).toEqual([[ids[3]]]);
    expect(await batch(3)).toEqual({ n: 0, seen: [] });
  });

  it('a batch of one row (the smallest limit) and a batch limited to exactly the rows there are', async () => {
    const ids = await enqueue(event('1'), event('2'));
    expect((await batch(1)).seen.map((rows) => rows.map((r) => r.id))).toEqual([[ids[0]]]);
    const two = await enqueue(event('3'));
    expect((await batch(2)).seen.map((rows) => rows.map((r) => r.id))).toEqual([[ids[1], two[0]]]);
  });

  it.each([[0], [-1], [1.5], [Number.NaN]])('refuses a batch size of %p before touching the database', async (limit) => {
    await enqueue(event());
    await expect(relayBatch(knex, SCHEMA, limit, async () => undefined)).rejects.toThrow('relay batch size must be a positive integer');
    expect(await unpublished()).toHaveLength(1);
  });

  it('payloads of every size come back byte for byte, across part boundaries, each row with its own bytes', async () => {
    const sizes = [0, 1, PAYLOAD_PART_BYTES - 1, PAYLOAD_PART_BYTES, PAYLOAD_PART_BYTES + 1, 2 * PAYLOAD_PART_BYTES + 7];
    const payloads = sizes.map((size) => new Uint8Array(randomBytes(size)));
    const ids = await enqueue(...payloads.map((p) => event(p)));
    const { seen } = await batch(10);
    expect(seen[0].map((r) => r.id)).toEqual(ids);
    seen[0].forEach((row, i) => {
      expect(row.payload.byteLength).toBe(sizes[i]);
      expect(Buffer.from(row.payload).equals(Buffer.from(payloads[i]))).toBe(true);
    });
  });

  it('a failed publish rolls back: nothing marked, the connection handed back outside any transaction, the error passed on', async () => {
    const single = knexFactory({ client: 'pg', connection: database.url, pool: { min: 1, max: 1 } });
    try {
      const ids = await enqueue(event('a'), event('b'));
      await expect(batch(5, async () => { throw new Error('broker down'); }, single)).rejects.toThrow('broker down');
      expect(await unpublished()).toEqual(ids);
      expect(await outbox().whereIn('id', ids).select('attempts')).toEqual([{ attempts: 0 }, { attempts: 0 }]);
      // the pool's only connection: no transaction left open (nor the claim's SET LOCAL), its row locks released
      const { rows } = await single.raw("SELECT txid_current_if_assigned() AS tx, now() = statement_timestamp() AS fresh, current_setting('enable_bitmapscan') AS bitmap");
      expect(rows[0]).toEqual({ tx: null, fresh: true, bitmap: 'on' });
      expect((await batch(5)).seen.map((r) => r.map((x) => x.id))).toEqual([ids]);
    } finally {
      await single.destroy();
    }
  });

  it('a connection that cannot even roll back is not handed out again; the publish error is the one passed on', async () => {
    // knex reports the terminated connection's error itself: not printed
    const quiet = { warn: () => undefined, error: () => undefined, debug: () => undefined, deprecate: () => undefined };
    const single = knexFactory({ client: 'pg', connection: database.url, pool: { min: 1, max: 1 }, log: quiet });
    try {
      const ids = await enqueue(event('a'));
      const pid = (await single.raw('SELECT pg_backend_pid() AS pid')).rows[0].pid as number;
      const failing = batch(5, async () => {
        await knex.raw('SELECT pg_terminate_backend(?)', [pid]);
        throw new Error('publish failed, then the connection died');
      }, single);
      await expect(failing).rejects.toThrow('publish failed, then the connection died');
      expect(await unpublished()).toEqual(ids);
      const again = await single.raw('SELECT pg_backend_pid() AS pid');
      expect(again.rows[0].pid).not.toBe(pid);
      expect((await batch(5, undefined, single)).n).toBe(1);
    } finally {
      await single.destroy();
    }
  });

  it('while one batch holds the outbox, another claims nothing (the lock is per schema: another outbox is free)', async () => {
    await knex.raw('CREATE SCHEMA other');
    try {
      await outboxMigration(knex, 'other');
      const ids = await enqueue(event('a'), event('b'));
      await knex.transaction((trx) => enqueueEvent(trx, 'other', event('o')));
      let inner: { n: number; seen: OutboxRow[][] } | undefined;
      let otherN = -1;
      const outer = await batch(1, async () => {
        inner = await batch(5);
        otherN = await relayBatch(knex, 'other', 5, async () => undefined);
      });
      expect(outer.n).toBe(1);
      expect(inner).toEqual({ n: 0, seen: [] });
      expect(otherN).toBe(1);
      expect(await unpublished()).toEqual([ids[1]]);
    } finally {
      await knex.raw('DROP SCHEMA other CASCADE');
    }
  });

  it('rows locked by another transaction are skipped, not waited for', async () => {
    const ids = await enqueue(event('a'), event('b'));
    const trx = await knex.transaction();
    try {
      await trx.raw(`SELECT 1 FROM ${SCHEMA}.outbox WHERE id = ? FOR UPDATE`, [ids[0]]);
      expect((await batch(5)).seen.map((r) => r.map((x) => x.id))).toEqual([[ids[1]]]);
    } finally {
      await trx.rollback();
    }
  });

  it('recordFailure counts an attempt and keeps the error on the named unpublished rows only', async () => {
    const [a, b, c, d] = await enqueue(event('a'), event('b'), event('c'), event('d'));
    await outbox().where({ id: c }).update({ published_at: knex.fn.now() });
    await recordFailure(knex, SCHEMA, [a, c], new Error('broker down'));
    await recordFailure(knex, SCHEMA, [a], 'a thrown string');
    await recordFailure(knex, SCHEMA, [b], new Error('é'.repeat(2500)));
    // a publish that rejected with nothing at all (`Promise.reject()`)
    await recordFailure(knex, SCHEMA, [d], undefined);
    const rows = await outbox().orderBy('seq').select('id', 'attempts', 'last_error');
    expect(rows).toEqual([
      { id: a, attempts: 2, last_error: 'a thrown string' },
      { id: b, attempts: 1, last_error: 'é'.repeat(2000) },
      { id: c, attempts: 0, last_error: null },
      { id: d, attempts: 1, last_error: 'undefined' },
    ]);
  });

  it('deletePublishedBefore deletes up to `limit` rows published strictly before the cutoff and answers how many', async () => {
    const ids = await enqueue(event('1'), event('2'), event('3'), event('4'), event('5'));
    const cutoff = new Date(Date.now() - 3_600_000);
    const at = (ms: number) => new Date(cutoff.getTime() + ms);
    await outbox().where({ id: ids[0] }).update({ published_at: at(-5000) });
    await outbox().where({ id: ids[1] }).update({ published_at: at(-4000) });
    await outbox().where({ id: ids[2] }).update({ published_at: at(-3000) });
    await outbox().where({ id: ids[3] }).update({ published_at: cutoff });
    // ids[4] unpublished
    expect(await deletePublishedBefore(knex, SCHEMA, cutoff, 2)).toBe(2);
    expect((await outbox().select('id')).length).toBe(3);
    expect(await deletePublishedBefore(knex, SCHEMA, cutoff, 2)).toBe(1);
    expect((await outbox().orderBy('seq').select('id')).map((r) => r.id)).toEqual([ids[3], ids[4]]);
    expect(await deletePublishedBefore(knex, SCHEMA, cutoff, 2)).toBe(0);
  });

  it('outboxLag: unpublished rows and the age of the oldest; 0 when none or when the clock says the future', async () => {
    expect(await outboxLag(knex, SCHEMA)).toEqual({ unsent: 0, oldestAgeSeconds: 0 });
    const [old, , sent] = await enqueue(event('1'), event('2'), event('3'));
    await outbox().where({ id: old }).update({ created_at: new Date(Date.now() - 3_600_000) });
    await outbox().where({ id: sent }).update({ published_at: knex.fn.now(), created_at: new Date(Date.now() - 7_200_000) });
    const lag = await outboxLag(knex, SCHEMA);
    expect(lag.unsent).toBe(2);
    expect(lag.oldestAgeSeconds).toBeGreaterThan(3590);
    expect(lag.oldestAgeSeconds).toBeLessThan(7000);
    await outbox().update({ created_at: new Date(Date.now() + 3_600_000) });
    expect(await outboxLag(knex, SCHEMA)).toEqual({ unsent: 2, oldestAgeSeconds: 0 });
  });

  it('toPublishInput: the bus message keeps the row id, topic, key, type, version, payload, headers and its time', () => {
    const row: OutboxRow = {
      id: randomUUID(), topic: 'records', key: 'tbl', type: 'records.after.update', version: 2, payload: new Uint8Array([1, 2]),
      headers: { traceparent: 'tp' }, created_at: new Date('2026-01-02T03:04:05.678Z'),
    };
    expect(toPublishInput(row)).toEqual({
      id: row.id, topic: 'records', key: 'tbl', type: 'records.after.update', version: 2, payload: row.payload,
      headers: { traceparent: 'tp' }, timestamp: '2026-01-02T03:04:05.678Z',
    });
  });

  it('joinClaimedParts: consecutive parts of a row joined; a row whose parts do not add up to its size refused', () => {
    const part = (seq: number, n: number, text: string, size: number) => ({
      id: `id${seq}`, seq: String(seq), part: n, payload: Buffer.from(text).toString('base64'), size, topic: 't', key: 'k', type: 'x', version: 1,
      headers: {}, created_at: new Date(0),
    });
    const rows = joinClaimedParts([part(1, 1, 'ab', 4), part(1, 2, 'cd', 4), part(2, 1, 'e', 1), part(3, 1, '', 0)]);
    expect(rows.map((r) => [r.id, r.seq, Buffer.from(r.payload).toString()])).toEqual([['id1', '1', 'abcd'], ['id2', '2', 'e'], ['id3', '3', '']]);
    expect(Object.keys(rows[0]).sort()).toEqual(['created_at', 'headers', 'id', 'key', 'payload', 'seq', 'topic', 'type', 'version']);
    expect(() => joinClaimedParts([part(7, 1, 'ab', 3)])).toThrow('outbox payload of 7: 2 bytes decoded, 3 stored');
  });
});
