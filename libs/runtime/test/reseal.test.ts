import knexFactory, { type Knex } from 'knex';
import { createTestDatabase, type TestDatabase } from '@tabula/testing';
import { AtRestRing, KeyRing, SecretBox, resealStale, sealedColumn } from '@tabula/runtime';

const PURPOSE = 'tabula-test-things';
const FORMER = 'former-internal-secret-0123456789abcdef';
const A = 'ring-key-a-for-the-reseal-test-0000000001';
const B = 'ring-key-b-for-the-reseal-test-0000000002';
const ROWS = 450;

let database: TestDatabase;
const pools: Knex[] = [];
const column = sealedColumn('public.things', 'secret');

beforeAll(async () => {
  database = await createTestDatabase();
  for (let i = 0; i < 3; i += 1) pools.push(knexFactory({ client: 'pg', connection: database.url, pool: { min: 0, max: 2 } }));
  await pools[0].schema.createTable('things', (t) => { t.string('id', 20).primary(); t.text('secret'); });
});
afterAll(async () => {
  for (const pool of pools) await pool.destroy();
  await database?.drop();
});

const values = async () => (await pools[0]('things').orderBy('id')) as { id: string; secret: string | null }[];

describe('resealStale (the start-up re-seal)', () => {
  it('brings former formats and older ring keys over to the first key, three replicas at once, each row once; nothing lost', async () => {
    const box = new SecretBox(PURPOSE, FORMER);
    const v2 = new KeyRing(PURPOSE, [FORMER]);
    const older = new AtRestRing(PURPOSE, [A]);
    const rows = Array.from({ length: ROWS }, (_, i) => {
      const id = `t${String(i).padStart(5, '0')}`;
      const sealed = [box, v2, older][i % 3].seal({ n: i });
      return { id, secret: sealed };
    });
    const stored: Array<{ id: string; secret: string | null }> = [...rows, { id: 'tnull', secret: null }];
    await pools[0].batchInsert('things', stored, 100);
    const ring = new AtRestRing(PURPOSE, [B, A], [FORMER]);

    const reports = await Promise.all(pools.map((pool) => resealStale(pool, ring, column, 50)));
    expect(reports.reduce((n, r) => n + r.resealed, 0)).toBe(ROWS);
    expect(reports.flatMap((r) => r.unreadable)).toEqual([]);
    const after = await values();
    expect(after.filter((r) => r.secret !== null).every((r) => r.secret!.startsWith(ring.currentPrefix))).toBe(true);
    const onlyNew = new AtRestRing(PURPOSE, [B]);
    expect(after.filter((r) => r.secret !== null).map((r) => onlyNew.open<{ n: number }>(r.secret!).n)).toEqual(rows.map((_, i) => i));
    expect(after.find((r) => r.id === 'tnull')?.secret).toBeNull();

    expect(await resealStale(pools[1], ring, column)).toEqual({ resealed: 0, unreadable: [] });
  });

  it('names a row no key opens and leaves it as it is, re-sealing the others', async () => {
    const stranger = new AtRestRing(PURPOSE, ['a-key-this-deployment-never-had-000000']).seal({ n: -1 });
    await pools[0]('things').where({ id: 't00001' }).update({ secret: stranger });
    await pools[0]('things').where({ id: 't00002' }).update({ secret: new SecretBox(PURPOSE, FORMER).seal({ n: 2 }) });
    const report = await resealStale(pools[0], new AtRestRing(PURPOSE, [B], [FORMER]), column);
    expect(report).toEqual({ resealed: 1, unreadable: ['t00001'] });
    expect((await pools[0]('things').where({ id: 't00001' }).first()).secret).toBe(stranger);
  });
});
