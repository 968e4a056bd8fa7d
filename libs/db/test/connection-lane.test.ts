import knexFactory, { type Knex } from 'knex';
import { createTestDatabase, type TestDatabase } from '@tabula/testing';
import { laneOf, prepareStatement, queryPrepared } from '../src';

interface Pool { numUsed(): number; numFree(): number; numPendingAcquires(): number; on(event: string, listener: () => void): void }
interface Client { pool: Pool; acquireConnection(): Promise<{ __knex__disposed?: unknown }>; releaseConnection(c: unknown): Promise<void> }

const turns = async (n: number) => { for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r)); };

/** The lane of hot statements on a one-connection pool (real PostgreSQL): what the pool lends and gets back. */
describe('connection lane (libs/db connection-lane.ts)', () => {
  let database: TestDatabase;
  let db: Knex;
  let client: Client;
  let acquires = 0;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = knexFactory({ client: 'pg', connection: database.url, pool: { min: 0, max: 1 }, log: { warn: () => undefined } });
    client = db.client as Client;
    await db.raw('create table things (id int primary key, a int)');
    await db.raw('insert into things select g, g * 10 from generate_series(1, 20) g');
    client.pool.on('acquireRequest', () => { acquires += 1; });
  });
  afterAll(async () => { await db.destroy(); await database.drop(); });

  const read = { name: 'lane_read', text: 'select "a" from "things" where "id" = $1' };

  it('back-to-back statements share one loan of the connection; it goes back to the pool after a whole idle turn', async () => {
    await turns(3);
    expect(client.pool.numUsed()).toBe(0);
    acquires = 0;
    for (let id = 1; id <= 5; id++) expect(await queryPrepared(db, read, [id])).toEqual([{ a: id * 10 }]);
    expect(acquires).toBe(1);
    expect(laneOf(client).size).toBe(1);
    expect(client.pool.numUsed()).toBe(1);
    await turns(3);
    expect(laneOf(client).size).toBe(0);
    expect(client.pool.numUsed()).toBe(0);
    expect(client.pool.numFree()).toBe(1);
  });

  it('a knex query waiting for the pool gets the connection as soon as the hot statement is done with it', async () => {
    await turns(3);
    const slow = { name: 'lane_slow', text: 'select "a" from "things", pg_sleep(0.2) where "id" = $1' };
    const hot = queryPrepared(db, slow, [2]);
    await new Promise((r) => setTimeout(r, 50));
    expect(client.pool.numUsed()).toBe(1);
    // The pool's one connection is the hot statement's: this query (started by then()) waits in the pool.
    const other = db.raw('select 42 as n').then((r) => r);
    await new Promise((r) => setTimeout(r, 20));
    expect(client.pool.numPendingAcquires()).toBe(1);
    expect(await hot).toEqual([{ a: 20 }]);
    expect(laneOf(client).size).toBe(0);
    expect((await other).rows).toEqual([{ n: 42 }]);
  });

  it('a knex query that comes while the connection sits idle in the lane waits at most two turns', async () => {
    await turns(3);
    await queryPrepared(db, read, [3]);
    expect(laneOf(client).size).toBe(1);
    let answered = false;
    const other = db.raw('select 7 as n').then((r) => { answered = true; return r; });
    await turns(3);
    await new Promise((r) => setTimeout(r, 20));
    expect(answered).toBe(true);
    expect((await other).rows).toEqual([{ n: 7 }]);
  });

  it('a connection that failed is handed back to the pool (which replaces it), never taken from the lane again', async () => {
    await turns(3);
    await queryPrepared(db, read, [4]);
    const lane = laneOf(client);
    expect(lane.size).toBe(1);
    const held = lane.take() as { __knex__disposed?: unknown };
    held.__knex__disposed = new Error('connection reset');
    lane.give(held as never);
    expect(lane.size).toBe(0);
    expect(await queryPrepared(db, read, [5])).toEqual([{ a: 50 }]);
    expect(await db.raw('select 1 as one').then((r) => r.rows)).toEqual([{ one: 1 }]);
  });

  it('an error answer still gives the connection back, and the next statement runs', async () => {
    await turns(3);
    const bad = prepareStatement(db, 'select 1 / (a - a) as x from things where id = ?');
    await expect(queryPrepared(db, bad, [1])).rejects.toThrow(/division by zero/);
    expect(await queryPrepared(db, read, [6])).toEqual([{ a: 60 }]);
    await turns(3);
    expect(client.pool.numUsed()).toBe(0);
  });
});

describe('connection lane and knex.destroy()', () => {
  it('a connection idle in the lane does not hold up destroy, and nothing throws after it', async () => {
    const database = await createTestDatabase();
    const db = knexFactory({ client: 'pg', connection: database.url, pool: { min: 0, max: 2 } });
    try {
      expect(await queryPrepared(db, { name: 'lane_one', text: 'select 1 as one where $1::int = 1' }, [1])).toEqual([{ one: 1 }]);
      expect(laneOf(db.client as Client).size).toBe(1);
      await db.destroy();
      expect(laneOf(db.client as Client).size).toBe(0);
      await turns(3);
    } finally {
      await database.drop();
    }
  });
});
