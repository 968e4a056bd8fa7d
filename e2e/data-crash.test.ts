import knex, { type Knex } from 'knex';
import { RecordOperation, RecordsChangedSchema, decodeEvent } from '@tabula/contracts';
import { createTestDatabase, describeWithBackend, startTestCluster, type TestCluster, type TestDatabase } from '@tabula/testing';

/**
 * Issue 5 crash test: the data service process is SIGKILLed in the middle of a
 * 1000-row bulk insert (cluster mode, Redis bus). Afterwards the table holds
 * either all 1000 rows and the outbox exactly one bulkInsert event carrying
 * them (published once data is back), or neither. Two kills are placed
 * deterministically: between the INSERT and the COMMIT (the test holds a lock
 * that parks the write's outbox INSERT, which comes after the rows' INSERT in
 * the same transaction) → neither; and just after the COMMIT → both. The
 * timed kills in between land wherever they land, and must give one of the two.
 */
let database: TestDatabase;
let cluster: TestCluster;
let db: Knex;
let token = '';
let baseId = '';
let tableId = '';
let tableName = '';

async function call(path: string, body: unknown): Promise<any> {
  const res = await fetch(`${cluster.gatewayUrl}${path}`, {
    method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { 'xc-auth': token } : {}) }, body: JSON.stringify(body),
  });
  return res.json();
}

/** True once a backend is running the bulk's INSERT into the table (the request was accepted and is mid-transaction). */
async function insertRunning(): Promise<boolean> {
  // The insert is either a plain INSERT or the one-statement form (a CTE carrying its outbox row).
  const res = await db.raw("select count(*)::int as n from pg_stat_activity where (query ilike ? or query ilike ?) and state <> 'idle' and pid <> pg_backend_pid()",
    [`insert into "${baseId}"."${tableName}"%`, `with ins as (%insert into "${baseId}"."${tableName}"%`]);
  return res.rows[0].n > 0;
}

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 2));
  }
  return false;
}

/** The outbox's bulkInsert events whose rows carry the marker (decoded from the stored protobuf). */
async function eventsOf(marker: string): Promise<{ rows: number; published: boolean }[]> {
  const stored = await db.withSchema('data').table('outbox').select('payload', 'published_at').where({ key: tableId, type: 'records.after.insert' });
  return stored.map((r) => decodeEvent(RecordsChangedSchema, r.payload))
    .map((e, i) => ({ e, published: stored[i].published_at !== null }))
    .filter(({ e }) => e.operation === RecordOperation.BULK_INSERT && e.rowsJson.includes(`"${marker}-0"`))
    .map(({ e, published }) => ({ rows: (JSON.parse(e.rowsJson) as unknown[]).length, published }));
}

/**
 * When to kill: while the INSERT runs, between the INSERT and the COMMIT, as
 * soon as the rows are committed (before the answer and the relay), or after a delay.
 */
type KillAt = 'mid-insert' | 'before-commit' | 'after-commit' | number;

/**
 * Holds SHARE on data.outbox in an open transaction. A write's INSERT into the
 * user table still goes through (another table), but its outbox INSERT (ROW
 * EXCLUSIVE, same transaction, before the COMMIT) waits: the write is parked
 * between its INSERT and its COMMIT until `release`.
 */
async function holdOutbox(): Promise<{ release(): Promise<void> }> {
  const trx = await db.transaction();
  await trx.raw('LOCK TABLE data.outbox IN SHARE MODE');
  return { release: async () => { await trx.rollback(); } };
}

/** Holds SHARE on the user table in an open transaction: a write's INSERT into it waits (running) until `release`. */
async function holdTable(): Promise<{ release(): Promise<void> }> {
  const trx = await db.transaction();
  await trx.raw(`LOCK TABLE "${baseId}"."${tableName}" IN SHARE MODE`);
  return { release: async () => { await trx.rollback(); } };
}

/** True once a backend has inserted into the user table (holds its write lock) and waits for the outbox. */
async function parkedBeforeCommit(): Promise<boolean> {
  const res = await db.raw(
    `select count(*)::int as n from pg_locks waiting join pg_locks holding on holding.pid = waiting.pid
     where not waiting.granted and waiting.relation = 'data.outbox'::regclass
       and holding.granted and holding.mode = 'RowExclusiveLock' and holding.relation = ?::regclass`,
    [`"${baseId}"."${tableName}"`],
  );
  return res.rows[0].n > 0;
}

async function rowsOf(marker: string): Promise<number> {
  const [{ n }] = await db.withSchema(baseId).table(tableName).where('name', 'like', `${marker}-%`).count({ n: '*' });
  return Number(n);
}

/** Sends a 1000-row bulk insert, SIGKILLs data at the chosen moment, restarts it; answers rows and events found. */
async function crashDuring(marker: string, killAt: KillAt): Promise<{ rows: number; events: { rows: number; published: boolean }[] }> {
  const bodies = Array.from({ length: 1000 }, (_, i) => ({ Name: `${marker}-${i}`, Qty: i }));
  // The gateway may hold sockets to the killed process: wait until data answers through it.
  expect(await until(async () => (await fetch(`${cluster.gatewayUrl}/api/v1/db/data/noco/${baseId}/Items?limit=1`, { headers: { 'xc-auth': token } })).status === 200, 10_000)).toBe(true);
  // mid-insert: the user table is locked (SHARE) so the INSERT waits, visibly running, until the kill
  // (a 1000-row insert takes ~20 ms: polling alone could miss it).
  const hold = killAt === 'before-commit' ? await holdOutbox() : killAt === 'mid-insert' ? await holdTable() : undefined;
  const request = call(`/api/v1/db/data/bulk/noco/${baseId}/Items`, bodies).catch(() => undefined);
  if (killAt === 'mid-insert') expect(await until(insertRunning, 10_000)).toBe(true);
  else if (killAt === 'before-commit') expect(await until(parkedBeforeCommit, 10_000)).toBe(true);
  else if (killAt === 'after-commit') expect(await until(async () => (await rowsOf(marker)) > 0, 10_000)).toBe(true);
  else await new Promise((r) => setTimeout(r, killAt));
  await cluster.kill('data');
  // A parked backend now finishes its statement: the outbox INSERT waits for a COMMIT its dead client never
  // sends; the one-statement insert (its own transaction) commits whole.
  await hold?.release();
  await request;
  // The orphaned backend rolls back (or had committed) once it sees the client gone.
  await until(async () => !(await insertRunning()), 10_000);
  await cluster.restart('data');
  const rows = await rowsOf(marker);
  if (rows) await until(async () => (await eventsOf(marker)).every((e) => e.published), 10_000);
  return { rows, events: await eventsOf(marker) };
}

describeWithBackend('redis', 'data service killed during a bulk insert (cluster mode)', () => {
  beforeAll(async () => {
    database = await createTestDatabase();
    cluster = await startTestCluster(['auth', 'meta', 'data'], database.url);
    db = knex({ client: 'pg', connection: database.url, pool: { min: 0, max: 2 } });
    token = (await call('/api/v1/auth/user/signup', { email: 'crash@example.com', password: 'Password123!' })).token;
    baseId = (await call('/api/v1/db/meta/projects/', { title: 'Crash' })).id;
    const table = await call(`/api/v1/db/meta/projects/${baseId}/tables`, {
      title: 'Items', table_name: 'items', columns: [
        { column_name: 'id', title: 'Id', uidt: 'ID', pk: true, ai: true },
        { column_name: 'name', title: 'Name', uidt: 'SingleLineText' },
        { column_name: 'qty', title: 'Qty', uidt: 'Number' },
      ],
    });
    tableId = table.id;
    tableName = table.table_name;
  }, 60_000);

  afterAll(async () => {
    await db?.destroy();
    await cluster?.stop();
    await database?.drop();
  });

  const all = { rows: 1000, events: [{ rows: 1000, published: true }] };

  it.each<[string, KillAt]>([
    ['while the INSERT runs', 'mid-insert'], ['5 ms after sending', 5], ['40 ms after sending', 40], ['150 ms after sending', 150],
  ])('leaves all 1000 rows and one event, or neither: killed %s', async (_label, killAt) => {
    const outcome = await crashDuring(`m${String(killAt)}`, killAt);
    expect([all, { rows: 0, events: [] }]).toContainEqual(outcome);
  }, 30_000);

  it('rolls back a bulk killed between its INSERT and its COMMIT: no row, no event', async () => {
    expect(await crashDuring('parked', 'before-commit')).toEqual({ rows: 0, events: [] });
  }, 30_000);

  it('keeps and publishes the event of a bulk committed just before the kill', async () => {
    expect(await crashDuring('committed', 'after-commit')).toEqual(all);
  }, 30_000);
});
