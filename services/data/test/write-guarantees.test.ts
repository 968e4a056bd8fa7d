import request from 'supertest';
import knexFactory, { type Knex } from 'knex';
import type { TableContext } from '@tabula/contracts';
import { describeWithBackend } from '@tabula/testing';
import { startDataHarness, type DataHarness } from './data-app.harness';
import { mysqlVariant, sourceVariants, type SourceVariant } from './source-variants';

/**
 * The README's write guarantees, each asserted as the property itself:
 * - a bulk insert is all or nothing even when the database refuses a row late
 *   in the batch, at INSERT time (a constraint the unique pre-check cannot see);
 * - on default sources a write's `records.after.*` event is written by the
 *   same transaction as its rows: same transaction id (xmin) for both, and a
 *   failing event write leaves the rows untouched (update, delete, bulk
 *   update/delete, update-all, delete-all, insert).
 */
const editor = { id: 'useditor0000001', email: 'ed@example.com' };
const B = '/api/v1/db/data/bulk/noco/pbase0000000001/Tasks';
const T = '/api/v1/db/data/noco/pbase0000000001/Tasks';

/** A connection to the source's own database and the table's qualified name there. */
function sourceDb(ctx: TableContext, dataUrl: string): { db: Knex; table: string; schema?: string } {
  const { source } = ctx;
  if (source.is_meta) return { db: knexFactory({ client: 'pg', connection: dataUrl }), table: `${source.schema}.tasks`, schema: source.schema };
  if (source.type === 'pg') return { db: knexFactory({ client: 'pg', connection: source.connection as string }), table: 'ext.tasks', schema: 'ext' };
  return { db: knexFactory({ client: source.type as string, connection: source.connection as Knex.StaticConnectionConfig, useNullAsDefault: true }), table: 'tasks' };
}

for (const variant of sourceVariants) describe(`all-or-nothing bulk insert on the ${variant.name}`, () => atomicInsertSuite(variant));
describeWithBackend('mysql', 'all-or-nothing bulk insert on an external MariaDB', () => atomicInsertSuite(mysqlVariant() as SourceVariant));

function atomicInsertSuite(variant: SourceVariant): void {
  let h: DataHarness;
  let ctx: TableContext;
  beforeAll(async () => {
    h = await startDataHarness();
    ctx = await variant.setup(h.database.url);
    h.apis.tables.set('tasks', ctx);
    h.apis.roles.set(`pbase0000000001:${editor.id}`, 'editor');
  });
  afterAll(async () => { await h?.stop(); await variant.teardown?.(); });

  const count = async () => (await request(h.server).get(`${T}/count`).set(h.as(editor))).body.count as number;

  it.each([
    ['rows with values for the pre-checked unique column', [{ Title: 'u1', Code: 'c1' }, { Title: 'u2', Code: 'c2' }, { Title: 'u3', Code: 'c3' }, { Title: 'u1', Code: 'c4' }]],
    ['rows without them', [{ Title: 'p1' }, { Title: 'p2' }, { Title: 'p3' }, { Title: 'p1' }]],
  ])('%s: the 4th row refused at INSERT time by a unique index the service does not know of → nothing stored, no event', async (_name, rows) => {
    const { db, table } = sourceDb(ctx, h.database.url);
    try {
      await db.raw(`create unique index tasks_title_late_uq on ${table} (title${ctx.source.type === 'mysql2' ? '(100)' : ''})`);
      const before = await count();
      const events = h.events.length;
      const res = await request(h.server).post(B).set(h.as(editor)).send(rows);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(await count()).toBe(before);
      const [stored] = await db(table).whereIn('title', ['u1', 'u2', 'u3', 'p1', 'p2', 'p3']).count({ n: '*' });
      expect(Number(stored.n)).toBe(0);
      await h.ports.relay.flush();
      expect(h.events.slice(events).filter((e) => e.type === 'records.after.insert')).toEqual([]);
    } finally {
      await db.raw(ctx.source.type === 'mysql2' ? `drop index tasks_title_late_uq on ${table}` : `drop index ${ctx.source.type === 'pg' || ctx.source.is_meta ? `${table.split('.')[0]}.` : ''}tasks_title_late_uq`);
      await db.destroy();
    }
  });

  it('a bulk insert that is stored is announced once, with its rows, on every source (after the commit on external ones)', async () => {
    const events = h.events.length;
    const res = await request(h.server).post(B).set(h.as(editor)).send([{ Title: 'announced-1' }, { Title: 'announced-2' }]);
    expect(res.status).toBe(200);
    await h.ports.relay.flush();
    const inserts = h.events.slice(events).filter((e) => e.type === 'records.after.insert');
    expect(inserts).toHaveLength(1);
    // the event's payload (protobuf) carries the rows as JSON text
    expect(Buffer.from(inserts[0].payload as Uint8Array).toString('utf8')).toContain('"Title":"announced-2"');
  });

  it('a write that changes no row answers as NocoDB (nothing updated or deleted) and announces nothing', async () => {
    const events = h.events.length;
    const updated = await request(h.server).patch(`${B}/all?where=(Title,eq,no-such-title)`).set(h.as(editor)).send({ Count: 1 });
    const deleted = await request(h.server).delete(`${B}/all?where=(Title,eq,no-such-title)`).set(h.as(editor));
    expect([updated.status, deleted.status]).toEqual([200, 200]);
    await h.ports.relay.flush();
    expect(h.events.slice(events).filter((e) => e.type.startsWith('records.after.'))).toEqual([]);
  });
}

/** The table with only plain columns: its inserts take the one-statement path (rows and outbox row in one INSERT … RETURNING). */
function plainColumns(ctx: TableContext): TableContext {
  const keep = new Set(['Id', 'CreatedAt', 'UpdatedAt', 'nc_created_by', 'nc_updated_by', 'nc_order', 'Title', 'Count']);
  return { ...ctx, table: { ...ctx.table, columns: ctx.table.columns.filter((c) => keep.has(c.title)), views: [] } };
}

describe.each([
  ['every column (unique, attachment: the transactional path)', (ctx: TableContext) => ctx],
  ['plain columns (inserts in one statement with their outbox row)', plainColumns],
])('default source, %s: a write and its records event commit together (the event write fails → the rows stay as they were)', (_name, shape) => {
  let h: DataHarness;
  let db: Knex;
  beforeAll(async () => {
    h = await startDataHarness();
    h.apis.tables.set('tasks', shape(await sourceVariants[0].setup(h.database.url)));
    h.apis.roles.set(`pbase0000000001:${editor.id}`, 'editor');
    db = knexFactory({ client: 'pg', connection: h.database.url });
    await db.raw(`create function pg_temp_fail_outbox() returns trigger language plpgsql as $$ begin raise exception 'outbox write refused (test fault)'; end $$`);
    const seeded = await request(h.server).post(B).set(h.as(editor)).send([1, 2, 3, 4, 5, 6].map((n) => ({ Title: `r${n}`, Count: n })));
    expect(seeded.status).toBe(200);
  });
  afterAll(async () => { await db?.destroy(); await h?.stop(); });

  const rowsNow = () => db('pbase.tasks').orderBy('id').select('id', 'title', 'count');
  const call = (method: 'post' | 'patch' | 'delete', path: string, body?: unknown) => request(h.server)[method](path).set(h.as(editor)).send(body as object);

  it.each([
    ['update', 'patch', `${T}/1`, { Count: 100 }],
    ['delete', 'delete', `${T}/2`, undefined],
    ['bulk update', 'patch', B, [{ Id: 3, Count: 300 }, { Id: 4, Count: 400 }]],
    ['bulk delete', 'delete', B, [{ Id: 3 }, { Id: 4 }]],
    ['update-all', 'patch', `${B}/all?where=(Count,gte,0)`, { Count: 7 }],
    ['delete-all', 'delete', `${B}/all?all=true`, undefined],
    ['insert', 'post', T, { Title: 'n1' }],
    ['bulk insert', 'post', B, [{ Title: 'n2' }, { Title: 'n3' }]],
  ] as const)('%s', async (_op, method, path, body) => {
    const before = await rowsNow();
    await db.raw('create trigger outbox_fault before insert on data.outbox for each row execute function pg_temp_fail_outbox()');
    try {
      const refused = await call(method, path, body);
      expect(refused.status).toBeGreaterThanOrEqual(500);
    } finally {
      await db.raw('drop trigger outbox_fault on data.outbox');
    }
    expect(await rowsNow()).toEqual(before);
    // the same write without the fault changes the rows (the case above was not a no-op)
    const events = await db('data.outbox').count({ n: '*' });
    const done = await call(method, path, body);
    expect(done.status).toBe(200);
    expect(await rowsNow()).not.toEqual(before);
    expect(Number((await db('data.outbox').count({ n: '*' }))[0].n)).toBe(Number(events[0].n) + 1);
  });
});
