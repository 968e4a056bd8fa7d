import knexFactory, { type Knex } from 'knex';
import { createTestDatabase, type TestDatabase } from '@tabula/testing';
import { canPrepare, prepareStatement, queryPrepared, rawTemplate } from '../src';

/** Named statements on a one-connection pool: what the server keeps is visible in pg_prepared_statements. */
describe('prepared statements (libs/db prepared.ts)', () => {
  let database: TestDatabase;
  let db: Knex;

  const preparedNames = async (): Promise<string[]> =>
    (await db.raw('select name from pg_prepared_statements order by prepare_time, name')).rows.map((r: { name: string }) => r.name);

  beforeAll(async () => {
    database = await createTestDatabase();
    db = knexFactory({ client: 'pg', connection: database.url, pool: { min: 1, max: 1 } });
    await db.raw('create table things (id int primary key, a int, b text)');
    await db.raw("insert into things select g, g * 10, 'b' || g from generate_series(1, 20) g");
  });
  afterAll(async () => { await db.destroy(); await database.drop(); });

  it('runs the statement with positional values, prepares it once per connection and keeps it', async () => {
    const stmt = prepareStatement(db, 'select "id", "a" from "things" where "id" in (?, ?) order by "id"');
    expect(stmt.text).toBe('select "id", "a" from "things" where "id" in ($1, $2) order by "id"');
    expect(await queryPrepared(db, stmt, [3, 4])).toEqual([{ id: 3, a: 30 }, { id: 4, a: 40 }]);
    expect(await queryPrepared(db, stmt, [5, 6])).toEqual([{ id: 5, a: 50 }, { id: 6, a: 60 }]);
    expect(await preparedNames()).toEqual([stmt.name]);
  });

  it('keeps at most perConnection statements, deallocating the least recently used', async () => {
    await db.raw('deallocate all');
    const conn = await (db.client as { acquireConnection(): Promise<{ connection: { parsedStatements: Record<string, string> } }> }).acquireConnection();
    for (const k of Object.keys(conn.connection.parsedStatements)) delete conn.connection.parsedStatements[k];
    await (db.client as { releaseConnection(c: unknown): Promise<void> }).releaseConnection(conn);
    const [s1, s2, s3] = [1, 2, 3].map((n) => prepareStatement(db, `select "a" from "things" where "id" = ? and ${n} = ${n}`));
    await queryPrepared(db, s1, [1], 2);
    await queryPrepared(db, s2, [2], 2);
    await queryPrepared(db, s1, [1], 2); // s1 used last: s2 is now the oldest
    expect(await queryPrepared(db, s3, [3], 2)).toEqual([{ a: 30 }]);
    expect((await preparedNames()).sort()).toEqual([s1.name, s3.name].sort());
    // An evicted statement prepares again when it is next used.
    expect(await queryPrepared(db, s2, [2], 2)).toEqual([{ a: 20 }]);
    expect((await preparedNames()).sort()).toEqual([s2.name, s3.name].sort());
  });

  it('a column type changed under a prepared statement: the read still answers, in the new type', async () => {
    const stmt = prepareStatement(db, 'select "a" from "things" where "id" = ?');
    expect(await queryPrepared(db, stmt, [7])).toEqual([{ a: 70 }]);
    await db.raw('alter table things alter column a type text');
    expect(await queryPrepared(db, stmt, [7])).toEqual([{ a: '70' }]);
    expect(await queryPrepared(db, stmt, [8])).toEqual([{ a: '80' }]);
  });

  it('perConnection 0 runs unnamed: nothing is kept on the server', async () => {
    await db.raw('deallocate all');
    const conn = await (db.client as { acquireConnection(): Promise<{ connection: { parsedStatements: Record<string, string> } }> }).acquireConnection();
    for (const k of Object.keys(conn.connection.parsedStatements)) delete conn.connection.parsedStatements[k];
    await (db.client as { releaseConnection(c: unknown): Promise<void> }).releaseConnection(conn);
    const stmt = prepareStatement(db, 'select "b" from "things" where "id" = ?');
    expect(await queryPrepared(db, stmt, [9], 0)).toEqual([{ b: 'b9' }]);
    expect(await preparedNames()).toEqual([]);
  });

  it('emits knex\'s query event (statement counts see it) and is refused inside a transaction', async () => {
    const seen: string[] = [];
    const listener = (q: { sql: string }) => seen.push(q.sql);
    db.on('query', listener);
    const stmt = prepareStatement(db, 'select "id" from "things" where "id" = ?');
    await queryPrepared(db, stmt, [1]);
    db.off('query', listener);
    expect(seen).toEqual([stmt.text]);
    expect(canPrepare(db)).toBe(true);
    await db.transaction(async (trx) => { expect(canPrepare(trx)).toBe(false); });
    const sqlite = knexFactory({ client: 'sqlite3', connection: { filename: ':memory:' }, useNullAsDefault: true });
    expect(canPrepare(sqlite)).toBe(false);
    await sqlite.destroy();
  });

  it('rawTemplate: identifiers are fixed at compile time, values stay parameters, a literal \\? survives', async () => {
    const sql = 'select ?? as "x", ? as "v", \'\\?\' as "q" from ?? where ?? = ?';
    const template = rawTemplate(db, sql, ['b', 'ignored', 'things', 'id', 0]);
    expect(template.statement.text).toBe('select "b" as "x", $1 as "v", \'?\' as "q" from "things" where "id" = $2');
    expect(template.values(['b', 'hello', 'things', 'id', 11])).toEqual(['hello', 11]);
    expect(await queryPrepared(db, template.statement, template.values(['b', 'hello', 'things', 'id', 11])))
      .toEqual([{ x: 'b11', v: 'hello', q: '?' }]);
  });
});
