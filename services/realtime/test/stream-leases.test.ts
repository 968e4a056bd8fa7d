import type { Knex } from 'knex';
import { createKnex, runMigrations } from '@tabula/db';
import { createTestDatabase, type TestDatabase } from '@tabula/testing';
import { migrations } from '../migrations';
import { REALTIME_SCHEMA } from '../src/repositories/realtime-db';
import { admitLease, pruneLeases, releaseLease, renewLeases } from '../src/repositories/stream-lease.repository';

/**
 * The cluster-wide stream count on real PostgreSQL: admissions racing on
 * separate connections (as replicas do) never pass the cap; released and
 * expired leases stop counting; renewed ones keep counting.
 */
let database: TestDatabase;
let db: Knex;

beforeAll(async () => {
  database = await createTestDatabase();
  db = createKnex({ url: database.url, poolMax: 12 });
  await db.raw('CREATE SCHEMA IF NOT EXISTS ??', [REALTIME_SCHEMA]);
  await runMigrations(db, REALTIME_SCHEMA, migrations);
});
afterAll(async () => {
  await db?.destroy();
  await database?.drop();
});

const lease = (principal: string, i: number, replica = 'r1') => ({ id: `${principal}-${i}-${Math.random()}`, principal, replica });

describe('stream leases (SVC_FEED_MAX_STREAMS_PER_PRINCIPAL across replicas)', () => {
  it('60 admissions racing on 12 connections admit exactly the cap', async () => {
    const results = await Promise.all(Array.from({ length: 60 }, (_, i) => admitLease(db, lease('racer', i, `r${i % 3}`), 60_000, 20)));
    expect(results.filter(Boolean).length).toBe(20);
    const row = await db.withSchema(REALTIME_SCHEMA).table('stream_leases').where('principal', 'racer').count({ n: '*' }).first();
    expect(Number(row?.n)).toBe(20);
  });

  it('a released lease frees its place; others\' leases do not count', async () => {
    const held = Array.from({ length: 3 }, (_, i) => lease('p', i));
    for (const l of held) expect(await admitLease(db, l, 60_000, 3)).toBe(true);
    expect(await admitLease(db, lease('p', 9), 60_000, 3)).toBe(false);
    expect(await admitLease(db, lease('q', 0), 60_000, 3)).toBe(true);
    await releaseLease(db, held[0].id);
    expect(await admitLease(db, lease('p', 10), 60_000, 3)).toBe(true);
    expect(await admitLease(db, lease('p', 11), 60_000, 3)).toBe(false);
  });

  it('expired leases stop counting; renewed ones keep counting', async () => {
    const dead = lease('e', 0, 'dead');
    const live = lease('e', 1, 'live');
    expect(await admitLease(db, dead, 300, 2)).toBe(true);
    expect(await admitLease(db, live, 300, 2)).toBe(true);
    expect(await admitLease(db, lease('e', 2), 300, 2)).toBe(false);
    // the live replica renews (its heartbeat); the dead one does not
    expect(await renewLeases(db, [live.id], 60_000)).toBe(1);
    await new Promise((r) => setTimeout(r, 600));
    // the dead replica's lease (not renewed) ran out: one place again, and only one
    expect(await admitLease(db, lease('e', 3), 60_000, 2)).toBe(true);
    expect(await admitLease(db, lease('e', 4), 60_000, 2)).toBe(false);
    expect(await db.withSchema(REALTIME_SCHEMA).table('stream_leases').where('id', dead.id).first()).toBeUndefined();
    expect(await pruneLeases(db)).toBeGreaterThanOrEqual(0);
  });
});
