import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { AppError } from '@tabula/errors';
import { backendUrl, describeWithBackend } from '@tabula/testing';
import { MYSQL_GROUP_CONCAT_MAX_LEN, SourceRegistry, externalKnex } from '../src';

describe('source registry', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tabula-sources-'));
  const dataDb = knexFactory({ client: 'sqlite3', connection: { filename: ':memory:' }, useNullAsDefault: true });
  const registry = new SourceRegistry(dataDb);

  afterAll(async () => {
    await registry.close();
    await dataDb.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('hands default sources the data database scoped to their schema, sharing the outbox database', () => {
    expect(registry.handleOf({ id: 's1', is_meta: true, type: 'pg', schema: 'b1' }))
      .toEqual({ id: 's1', dialect: 'pg', knex: dataDb, schema: 'b1', sharesOutboxDatabase: true, preparedPerConnection: 100 });
  });

  it('keeps one pool per external source and rebuilds it when the connection changes', async () => {
    const first = { id: 's2', is_meta: false, type: 'sqlite3' as const, connection: { filename: path.join(dir, 'a', 'one.db') } };
    const handle = registry.handleOf(first);
    expect(handle).toMatchObject({ dialect: 'sqlite3', schema: undefined, sharesOutboxDatabase: false });
    await handle.knex.raw('select 1');
    expect(registry.handleOf(first).knex).toBe(handle.knex);
    const moved = registry.handleOf({ ...first, connection: { filename: path.join(dir, 'b', 'two.db') } });
    expect(moved.knex).not.toBe(handle.knex);
    await registry.release('s2');
  });

  it('answers 502 ERR_SOURCE_UNAVAILABLE naming the source, never the driver message, when a source cannot be reached', async () => {
    const handle = registry.handleOf({
      id: 's3', base_id: 'b3', is_meta: false, type: 'pg',
      connection: { host: '127.0.0.1', port: 1, user: 'secret-user', password: 'x', connectionTimeoutMillis: 2000 },
    });
    const error = await handle.knex.raw('select 1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ status: 502, code: 'ERR_SOURCE_UNAVAILABLE' });
    expect((error as Error).message).toContain("data source 's3' of base 'b3' (pg");
    expect((error as Error).message).not.toContain('secret-user');
  });
});

describeWithBackend('mysql', 'external MySQL sources', () => {
  let knex: Knex;
  beforeAll(() => { knex = externalKnex('mysql2', backendUrl('mysql')!); });
  afterAll(async () => { await knex.destroy(); });

  it('read dates and datetimes as text in UTC (no shift with the process time zone)', async () => {
    const [rows] = await knex.raw("select cast('2024-03-01' as date) as d, cast('2024-03-01 23:30:00' as datetime) as dt");
    expect(rows[0]).toEqual({ d: '2024-03-01', dt: '2024-03-01 23:30:00' });
  });

  it('let GROUP_CONCAT build results past 1 MiB (MySQL cuts at 1 KiB, MariaDB at 1 MiB, by default)', async () => {
    const [[limit]] = await knex.raw('select @@SESSION.group_concat_max_len as n');
    expect(Number(limit.n)).toBe(MYSQL_GROUP_CONCAT_MAX_LEN);
    // 2,000 values of 1,000 characters: 2 MB joined, cut by either default
    const [[row]] = await knex.raw(
      "select length(group_concat(repeat('x', 1000) separator ',')) as n from (select 1 from information_schema.columns limit 2000) as t");
    const [[count]] = await knex.raw('select count(*) as n from (select 1 from information_schema.columns limit 2000) as t');
    expect(Number(row.n)).toBe(Number(count.n) * 1001 - 1);
    expect(Number(count.n)).toBeGreaterThan(1100);
  });
});
