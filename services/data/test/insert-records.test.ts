import knexFactory, { type Knex } from 'knex';
import { RecordOperation, RecordsChangedSchema, decodeEvent, hooksInternal, type ColumnInfo, type TableContext } from '@tabula/contracts';
import type { Principal } from '@tabula/auth';
import { startDataHarness, type DataHarness } from './data-app.harness';
import { createTasksTable, tasksContext } from './table.fixture';
import { mysqlVariant, sourceVariants, type SourceVariant } from './source-variants';
import { insertedBy, installTxLog } from './tx-log.fixture';
import { insertRecords, insertRecordsAs, type InsertOptions } from '../src/domain/insert-records';
import type { TableInScope } from '../src/domain/table-access';
import type { TableHandle } from '../src/context/table-handle';
import type { DataPorts } from '../src/ports';

/**
 * The insert use case driven directly (no HTTP; nothing inserted in beforeAll): what it stores and answers, the
 * event it writes with the rows (one statement with them on default pg sources with plain columns, in their
 * transaction otherwise, after the commit on external sources), its refusals (bulk size, unique values, required
 * links, named by record index in a bulk), `before`, formulas and links, on default pg, external pg, SQLite and
 * MariaDB.
 */
const editor: Principal = { kind: 'user', id: 'useditor0000001', email: 'ed@example.com', roles: [] };
const BASE = 'pbase0000000001';

let n = 0;
const col = (model: string, title: string, column_name: string, uidt: string, extra: Partial<ColumnInfo> = {}): ColumnInfo => ({
  id: `ci${String(++n).padStart(13, '0')}`, fk_model_id: model, title, column_name, uidt, dt: null,
  pk: false, pv: false, rqd: false, unique: false, ai: false, au: false, system: false, order: n, ...extra,
});
const systemColumns = (model: string): ColumnInfo[] => [
  col(model, 'Id', 'id', 'ID', { pk: true, ai: true, rqd: true, dt: 'integer' }),
  col(model, 'nc_created_by', 'created_by', 'CreatedBy', { system: true, dt: 'character varying' }),
  col(model, 'nc_order', 'nc_order', 'Order', { system: true, dt: 'decimal' }),
];

/** A default-source table of plain columns (the one-statement insert serves it); `Code` unique in meta only. */
function plainContext(): TableContext {
  const tasks = tasksContext('pbase');
  const m = 'mplain00000000';
  const columns = [...systemColumns(m), col(m, 'Name', 'name', 'SingleLineText', { pv: true, dt: 'text' }),
    col(m, 'Score', 'score', 'Number', { dt: 'bigint' }), col(m, 'Code', 'code', 'SingleLineText', { dt: 'text', unique: true })];
  return { ...tasks, table: { ...tasks.table, id: m, table_name: 'plain', title: 'Plain', columns, views: [] } };
}

/** The plain table with a formula column (computed by SELECT: the transactional path, read back). */
function formulaContext(): TableContext {
  const plain = plainContext();
  const m = 'mformula000000';
  const columns = [...plain.table.columns.map((c) => ({ ...c, id: c.id.replace('ci', 'cf'), fk_model_id: m })),
    col(m, 'Shout', 'shout', 'Formula', { colOptions: { formula: 'CONCAT({Name}, "!")' } as unknown as ColumnInfo['colOptions'] })];
  return { ...plain, table: { ...plain.table, id: m, table_name: 'plain', title: 'Shouting', columns } };
}

/** `people` and `assigned`, whose required Owner link (bt) to a person is stored in `owner_id`. */
function linkContexts(): { people: TableContext; assigned: TableContext } {
  const tasks = tasksContext('pbase');
  const p = 'mpeople0000000';
  const a = 'massigned00000';
  const peopleColumns = [...systemColumns(p), col(p, 'Name', 'name', 'SingleLineText', { pv: true, dt: 'text' })];
  const people = { ...tasks.table, id: p, table_name: 'people', title: 'People', columns: peopleColumns, views: [] };
  const ownerFk = col(a, 'owner_id', 'owner_id', 'ForeignKey', { dt: 'integer', system: true });
  const assignedColumns = [...systemColumns(a), col(a, 'Title', 'title', 'SingleLineText', { pv: true, dt: 'text' }), ownerFk,
    col(a, 'Owner', 'owner', 'LinkToAnotherRecord', { rqd: true, colOptions: { type: 'bt', fk_related_model_id: p, fk_child_column_id: ownerFk.id, fk_parent_column_id: peopleColumns[0].id } as unknown as ColumnInfo['colOptions'] })];
  const assigned = { ...tasks.table, id: a, table_name: 'assigned', title: 'Assigned', columns: assignedColumns, views: [] };
  return { people: { ...tasks, table: people, related: [assigned] }, assigned: { ...tasks, table: assigned, related: [people] } };
}

/** {@link plainContext} on an external pg source (no nc_order sequence there: the transaction, the event after it). */
function externalPlainContext(url: string): TableContext {
  const plain = plainContext();
  const m = 'mxplain0000000';
  return {
    ...plain, source: { ...plain.source, id: 'bsrcxplain0000', is_meta: false, type: 'pg', connection: url, schema: 'xplain' },
    table: { ...plain.table, id: m, title: 'XPlain', columns: plain.table.columns.map((c) => ({ ...c, id: c.id.replace('ci', 'cx'), fk_model_id: m })) },
  };
}

/** A default-source table without an order column (nothing to number: no one-statement insert). */
function bareContext(): TableContext {
  const tasks = tasksContext('pbase');
  const m = 'mbare000000000';
  const columns = [col(m, 'Id', 'id', 'ID', { pk: true, ai: true, rqd: true, dt: 'integer' }), col(m, 'Name', 'name', 'SingleLineText', { pv: true, dt: 'text' })];
  return { ...tasks, table: { ...tasks.table, id: m, table_name: 'bare', title: 'Bare', columns, views: [] } };
}

/** A variant's context under its own source and table ids (one resolver serves them all). */
function ownIds(ctx: TableContext, key: string): TableContext {
  const id = `m${key}`.padEnd(14, '0');
  return {
    ...ctx, source: { ...ctx.source, id: `bsrc${key}`.padEnd(14, '0') },
    table: { ...ctx.table, id, title: `Tasks ${key}`, columns: ctx.table.columns.map((c) => ({ ...c, fk_model_id: id })), views: [] },
  };
}

let h: DataHarness;
let db: Knex;
/** What the synchronous hooks were sent (hooks' internal API, answering that the table has sync and before hooks). */
const dispatched: Record<string, unknown>[] = [];
const handles = new Map<string, TableHandle>();
const variants: SourceVariant[] = [...sourceVariants.slice(1), ...[mysqlVariant()].filter((v): v is SourceVariant => v !== undefined)];

beforeAll(async () => {
  h = await startDataHarness();
  db = knexFactory({ client: 'pg', connection: h.database.url });
  await createTasksTable(db, 'pbase');
  await db.schema.withSchema('pbase').createTable('plain', (t) => {
    t.increments('id', { primaryKey: true });
    t.string('created_by', 255);
    t.decimal('nc_order', 38, 10).index();
    t.text('name');
    t.bigInteger('score');
    t.text('code');
  });
  await db.schema.withSchema('pbase').createTable('people', (t) => {
    t.increments('id', { primaryKey: true });
    t.string('created_by', 255);
    t.decimal('nc_order', 38, 10);
    t.text('name');
  });
  await db.schema.withSchema('pbase').createTable('assigned', (t) => {
    t.increments('id', { primaryKey: true });
    t.string('created_by', 255);
    t.decimal('nc_order', 38, 10);
    t.text('title');
    t.integer('owner_id');
  });
  await db('pbase.people').insert([{ name: 'Ada' }, { name: 'Bob' }]);
  await db.raw('create table pbase.bare (id serial primary key, name text)');
  await db.raw('create schema xplain');
  await db.raw('create table xplain.plain (like pbase.plain including all)');
  await installTxLog(db, ['data.outbox', 'pbase.plain', 'pbase.tasks', 'xplain.plain']);
  const { people, assigned } = linkContexts();
  const contexts: [string, TableContext][] = [['tasks', tasksContext('pbase')], ['plain', plainContext()], ['formula', formulaContext()],
    ['people', people], ['assigned', assigned], ['xplain', externalPlainContext(h.database.url)], ['bare', bareContext()]];
  for (const [i, variant] of variants.entries()) contexts.push([variant.name, ownIds(await variant.setup(h.database.url), `v${i}`)]);
  h.apis.implement(hooksInternal, {
    dispatchSync: ({ body }) => { dispatched.push(body as Record<string, unknown>); return { sync_hooks: true, before_hooks: true, deliveries: [] }; },
  });
  for (const [key, ctx] of contexts) h.apis.tables.set(key, ctx);
  for (const [key, ctx] of contexts) handles.set(key, await h.ports.tables.resolveById(ctx.table.id));
});
afterAll(async () => {
  await db?.destroy();
  await h?.stop();
  for (const variant of variants) await variant.teardown?.();
});

const scope = (key: string): TableInScope => ({ principal: editor, baseId: BASE, role: 'editor', value: { handle: handles.get(key)! } });
const insert = (key: string, bodies: unknown[], options: Partial<InsertOptions> = {}, ports: DataPorts = h.ports) =>
  insertRecordsAs(ports, scope(key), bodies, { bulk: false, ...options });
const lastSeq = async () => Number((await db('data.outbox').max({ s: 'seq' }))[0].s ?? 0);
/** `records.after.*` outbox rows written after `seq`, decoded, with their transaction id. */
async function eventsAfter(seq: number) {
  const rows = await db('data.outbox').where('seq', '>', seq).orderBy('seq').select('payload', 'key', 'id');
  const txs = await insertedBy(db, 'data.outbox', rows.map((r: { id: string }) => r.id));
  return rows.map((r: { payload: Buffer; key: string }, i: number) => {
    const e = decodeEvent(RecordsChangedSchema, new Uint8Array(r.payload));
    return { key: r.key, tx: txs[i], type: e.type, operation: e.operation, rows: JSON.parse(e.rowsJson) as Record<string, unknown>[], user: e.user?.id };
  });
}
/** The SQL the source's knex sent during `work`, and whether each ran inside a transaction. */
async function statementsOf<T>(key: string, work: () => Promise<T>): Promise<{ result: T; sql: { sql: string; inTx: boolean }[] }> {
  const knex = handles.get(key)!.source.knex;
  const sql: { sql: string; inTx: boolean }[] = [];
  const listener = (q: { sql: string; __knexTxId?: string }) => {
    // the relay polls the same database: its statements name the outbox only
    if (!/"?data"?\."?outbox"?/.test(q.sql) || /insert into "?pbase/i.test(q.sql) || q.sql.startsWith('with ')) sql.push({ sql: q.sql, inTx: Boolean(q.__knexTxId) });
  };
  knex.on('query', listener);
  try {
    return { result: await work(), sql };
  } finally {
    knex.removeListener('query', listener);
  }
}
const xminOf = (table: string, ids: unknown[]) => insertedBy(db, table, ids);
/** The statements that wrote rows (the sequence set-up of a table's first insert is not one). */
const writes = (sql: { sql: string; inTx: boolean }[]) => sql.filter((s) => /^(with ins|insert|update|delete)/i.test(s.sql));

describe('default pg source, plain columns: one statement for the rows and their event', () => {
  it('a single insert: stored, answered, its event (insert) written by the same statement, never in a transaction', async () => {
    await insert('plain', [{ Name: 'warm-up' }]); // the first insert creates the nc_order sequence
    const seq = await lastSeq();
    const { result, sql } = await statementsOf('plain', () => insert('plain', [{ Name: 'one', Score: 1 }]));
    const records = result.records();
    expect(records).toEqual([expect.objectContaining({ Name: 'one', Score: 1, Id: expect.any(Number) })]);
    expect(JSON.parse(result.json())).toEqual(records);
    expect(result.jsonPieces().join('')).toBe(result.json());
    expect(sql).toHaveLength(1);
    expect(sql[0].inTx).toBe(false);
    const events = await eventsAfter(seq);
    expect(events).toEqual([{ key: 'mplain00000000', tx: expect.any(String), type: 'records.after.insert', operation: RecordOperation.INSERT, rows: records, user: editor.id }]);
    expect(await xminOf('pbase.plain', [records[0].Id])).toEqual([events[0].tx]);
    expect(await db('pbase.plain').where({ id: records[0].Id }).first()).toMatchObject({ name: 'one', created_by: editor.id, nc_order: expect.anything() });
    // the objects form answers the same records
    const [plainRecord] = await insertRecords(h.ports, scope('plain'), [{ Name: 'two', Score: 2 }], { bulk: false });
    expect(plainRecord).toEqual(expect.objectContaining({ Name: 'two', Score: 2, Id: (records[0].Id as number) + 1 }));
  });

  it('a large bulk: its JSON answered in the database\'s pieces, which join into the records', async () => {
    const names = Array.from({ length: 6 }, (_, i) => `${i}:` + 'aé€'.repeat(8000));
    const result = await insert('plain', names.map((Name) => ({ Name })), { bulk: true });
    expect(result.jsonPieces().length).toBeGreaterThan(1);
    expect(result.json()).toBe(result.jsonPieces().join(''));
    expect(JSON.parse(result.json()).map((r: { Name: string }) => r.Name)).toEqual(names);
    expect(result.records().map((r) => r.Name)).toEqual(names);
  });

  it('single inserts of one turn share one statement (group commit); a bulk, even of one row, and a several-row insert keep their own', async () => {
    await insert('plain', [{ Name: 'warm-up', Score: 0 }]);
    const { result, sql } = await statementsOf('plain', () => Promise.all([
      insert('plain', [{ Name: 's1', Score: 1 }]), insert('plain', [{ Name: 's2', Score: 2 }]),
      insert('plain', [{ Name: 'b1', Score: 3 }], { bulk: true }), insert('plain', [{ Name: 'm1', Score: 4 }, { Name: 'm2', Score: 5 }]),
    ]));
    expect(result.map((r) => r.records().map((x) => x.Name))).toEqual([['s1'], ['s2'], ['b1'], ['m1', 'm2']]);
    expect(writes(sql)).toHaveLength(3);
  });

  it('a bulk insert: one statement, one bulkInsert event with every row, answered in request order with rising nc_order', async () => {
    await insert('plain', [{ Name: 'warm-up' }]); // the first insert creates the nc_order sequence
    const seq = await lastSeq();
    const bodies = [{ Name: 'b1', Score: 1 }, { Name: 'b2', Score: 2 }, { Name: 'b3', Score: 3 }];
    const { result, sql } = await statementsOf('plain', () => insert('plain', bodies, { bulk: true }));
    expect(sql).toHaveLength(1);
    const records = result.records();
    expect(records.map((r) => [r.Name, r.Score])).toEqual([['b1', 1], ['b2', 2], ['b3', 3]]);
    expect(JSON.parse(result.jsonPieces().join(''))).toEqual(records);
    const events = await eventsAfter(seq);
    expect(events.map((e) => [e.type, e.operation, e.rows])).toEqual([['records.after.insert', RecordOperation.BULK_INSERT, records]]);
    const ids = records.map((r) => r.Id as number);
    expect(new Set(await xminOf('pbase.plain', ids))).toEqual(new Set([events[0].tx]));
    const orders = (await db('pbase.plain').whereIn('id', ids).orderBy('id').select('nc_order')).map((r) => Number(r.nc_order));
    expect([...orders].sort((x, y) => x - y)).toEqual(orders);
    expect(new Set(orders).size).toBe(3);
  });

  it('a value taken by the unique column is refused before anything is stored (the database has no constraint on it)', async () => {
    await insert('plain', [{ Name: 'u', Code: 'taken' }]);
    const seq = await lastSeq();
    const stored = Number((await db('pbase.plain').count({ n: '*' }))[0].n);
    await expect(insert('plain', [{ Name: 'again', Code: 'taken' }])).rejects.toMatchObject({ status: expect.any(Number) });
    await expect(insert('plain', [{ Name: 'x', Code: 'free' }, { Name: 'y', Code: 'taken' }], { bulk: true })).rejects.toThrow(/^Record 1: /);
    expect(Number((await db('pbase.plain').count({ n: '*' }))[0].n)).toBe(stored);
    expect(await eventsAfter(seq)).toEqual([]);
  });

  it('an empty bulk stores and announces nothing', async () => {
    const seq = await lastSeq();
    const { result, sql } = await statementsOf('plain', () => insert('plain', [], { bulk: true }));
    expect(result.records()).toEqual([]);
    expect(result.json()).toBe('[]');
    expect(result.jsonPieces()).toEqual(['[]']);
    expect(sql).toEqual([]);
    expect(await eventsAfter(seq)).toEqual([]);
  });

  it('a bulk over SVC_BULK_MAX_RECORDS is refused; the limit is the bulk route\'s only', async () => {
    const ports = { ...h.ports, config: { ...h.ports.config, SVC_BULK_MAX_RECORDS: 2 } };
    const seq = await lastSeq();
    await expect(insert('plain', [{ Name: 'l1' }, { Name: 'l2' }, { Name: 'l3' }], { bulk: true }, ports)).rejects.toThrow('Maximum 2 entities are allowed per request');
    expect(await eventsAfter(seq)).toEqual([]);
    expect((await insert('plain', [{ Name: 'l1' }, { Name: 'l2' }], { bulk: true }, ports)).records()).toHaveLength(2);
    expect((await insert('plain', [{ Name: 'm1' }, { Name: 'm2' }, { Name: 'm3' }], { bulk: false }, ports)).records()).toHaveLength(3);
  });

  it('rows setting different columns, and an insert `before` a row, take the transaction: the rows and their event still commit together', async () => {
    const seq = await lastSeq();
    const mixed = await statementsOf('plain', () => insert('plain', [{ Name: 'only name' }, { Score: 42 }], { bulk: true }));
    expect(writes(mixed.sql).length).toBeGreaterThan(0);
    expect(writes(mixed.sql).every((s) => s.inTx)).toBe(true);
    const records = mixed.result.records();
    expect(records.map((r) => [r.Name, r.Score])).toEqual([['only name', null], [null, 42]]);
    const [target] = (await insert('plain', [{ Name: 'target' }])).records();
    const placed = await statementsOf('plain', () => insert('plain', [{ Name: 'placed' }], { before: String(target.Id) }));
    expect(writes(placed.sql).length).toBeGreaterThan(0);
    expect(writes(placed.sql).every((s) => s.inTx)).toBe(true);
    const [row] = placed.result.records();
    const order = async (id: unknown) => Number((await db('pbase.plain').where({ id }).first()).nc_order);
    expect(await order(row.Id)).toBeLessThan(await order(target.Id));
    const events = await eventsAfter(seq);
    expect(events.map((e) => [e.operation, e.rows.map((r) => r.Name)])).toEqual([
      [RecordOperation.BULK_INSERT, ['only name', null]], [RecordOperation.INSERT, ['target']], [RecordOperation.INSERT, ['placed']],
    ]);
    expect(await xminOf('pbase.plain', [records[0].Id, records[1].Id])).toEqual([events[0].tx, events[0].tx]);
    expect(await xminOf('pbase.plain', [row.Id])).toEqual([events[2].tx]);
  });
});

describe('what the write announces besides its outbox event', () => {
  /** The records.before.* messages of the table published since `from` (straight to the bus, before the write). */
  async function beforeEvents(from: number, tableId: string) {
    const mine = () => h.events.slice(from).filter((e) => e.key === tableId && e.type.startsWith('records.before.'));
    for (let i = 0; i < 200 && mine().length === 0; i++) await new Promise((r) => setTimeout(r, 25));
    return mine().map((e) => decodeEvent(RecordsChangedSchema, e.payload));
  }

  it.each([
    ['plain', 'mplain00000000', [{ Name: 'hooked 1', Score: 1 }, { Name: 'hooked 2', Score: 2 }]],
    ['tasks', 'mtasks00000000', [{ Title: 'hooked 1' }, { Title: 'hooked 2' }]],
  ])('%s: the before event carries the bodies; the sync hooks get the stored records with the outbox event\'s id', async (key, tableId, bodies) => {
    const seq = await lastSeq();
    const fromEvents = h.events.length;
    const fromHooks = dispatched.length;
    const records = (await insert(key, bodies, { bulk: true })).records();
    const [event] = await db('data.outbox').where('seq', '>', seq).select('id');
    expect(dispatched.slice(fromHooks)).toEqual([expect.objectContaining({
      eventId: event.id, type: 'records.after.insert', operation: 'bulkInsert', tableId, rows: records, user: { id: editor.id, email: editor.email },
    })]);
    const before = await beforeEvents(fromEvents, tableId);
    expect(before.map((e) => [e.type, e.operation, JSON.parse(e.rowsJson), e.user?.id])).toEqual([['records.before.insert', RecordOperation.BULK_INSERT, bodies, editor.id]]);
    const single = (await insert(key, [bodies[0]])).records();
    expect(dispatched.slice(fromHooks + 1)).toEqual([expect.objectContaining({ type: 'records.after.insert', operation: 'insert', rows: single })]);
  });
});

describe('default pg source, the transactional path', () => {
  it('attachments are claimed from storage first: one it refuses stops the insert before anything is stored', async () => {
    const seq = await lastSeq();
    const file = (path: string) => [{ path, title: 'a.png', mimetype: 'image/png', size: 3 }];
    h.apis.refusedPaths.add('download/not-yours.png');
    const calls = h.apis.storageCalls.length;
    await expect(insert('tasks', [{ Title: 'f1', Files: file('download/mine.png') }, { Title: 'f2', Files: file('download/not-yours.png') }], { bulk: true }))
      .rejects.toThrow("Column 'Files': 'download/not-yours.png' is neither a file you uploaded nor an attachment of this base");
    expect(await db('pbase.tasks').whereIn('title', ['f1', 'f2'])).toEqual([]);
    expect(await eventsAfter(seq)).toEqual([]);
    const [stored] = (await insert('tasks', [{ Title: 'f3', Files: file('download/mine.png') }])).records();
    expect(stored.Files).toEqual([expect.objectContaining({ path: 'download/mine.png', title: 'a.png' })]);
    expect(h.apis.storageCalls.slice(calls).map((c) => (c.body as { items: { path: string }[] }).items.map((i) => i.path)))
      .toEqual(expect.arrayContaining([['download/mine.png', 'download/not-yours.png'], ['download/mine.png']]));
  });


  it('a table with attachment and unique columns: rows and event in one transaction, answered as stored', async () => {
    const seq = await lastSeq();
    const { result, sql } = await statementsOf('tasks', () => insert('tasks', [{ Title: 't1', Code: 'k1', Count: 3 }, { Title: 't2', Done: true }], { bulk: true }));
    expect(writes(sql).length).toBeGreaterThan(0);
    expect(writes(sql).every((s) => s.inTx)).toBe(true);
    const records = result.records();
    expect(records).toEqual([expect.objectContaining({ Title: 't1', Code: 'k1', Count: 3, Done: false }), expect.objectContaining({ Title: 't2', Code: null, Done: true })]);
    expect(JSON.parse(result.json())).toEqual(records);
    expect(result.jsonPieces().join('')).toBe(result.json());
    // answered from the INSERT's RETURNING: the only read of the table is the unique check (no read-back on pg)
    expect(sql.filter((q) => /^select/i.test(q.sql) && q.sql.includes('"pbase"."tasks"')).map((q) => q.sql)).toEqual([expect.stringMatching(/^select "id", "code" from/)]);
    const events = await eventsAfter(seq);
    expect(events.map((e) => [e.key, e.operation, e.rows, e.user])).toEqual([['mtasks00000000', RecordOperation.BULK_INSERT, records, editor.id]]);
    expect(await xminOf('pbase.tasks', records.map((r) => r.Id))).toEqual([events[0].tx, events[0].tx]);
    const single = await insert('tasks', [{ Title: 't3' }]);
    expect((await eventsAfter(seq)).map((e) => e.operation)).toEqual([RecordOperation.BULK_INSERT, RecordOperation.INSERT]);
    expect(single.records()[0]).toMatchObject({ Title: 't3' });
  });

  it('a duplicate of the unique column refused, named by its record index in a bulk, nothing stored', async () => {
    await insert('tasks', [{ Title: 'k', Code: 'dup' }]);
    const seq = await lastSeq();
    await expect(insert('tasks', [{ Title: 'a', Code: 'new' }, { Title: 'b', Code: 'dup' }], { bulk: true })).rejects.toThrow(/^Record 1: /);
    expect(await db('pbase.tasks').where({ code: 'new' })).toEqual([]);
    expect(await eventsAfter(seq)).toEqual([]);
  });

  it('a formula column: the rows are read back with its value', async () => {
    const seq = await lastSeq();
    const { result, sql } = await statementsOf('formula', () => insert('formula', [{ Name: 'hey' }]));
    expect(writes(sql).length).toBeGreaterThan(0);
    expect(writes(sql).every((s) => s.inTx)).toBe(true);
    expect(result.records()).toEqual([expect.objectContaining({ Name: 'hey', Shout: 'hey!' })]);
    expect((await eventsAfter(seq)).map((e) => e.rows)).toEqual([result.records()]);
  });

  it('a required link: refused when missing (by record index in a bulk), stored with the row when given', async () => {
    await expect(insert('assigned', [{ Title: 'nobody' }])).rejects.toThrow("Field 'Owner' is required");
    await expect(insert('assigned', [{ Title: 'a', Owner: { Id: 1 } }, { Title: 'b' }], { bulk: true })).rejects.toThrow("Record 1: Field 'Owner' is required");
    expect(await db('pbase.assigned').select('title')).toEqual([]);
    const seq = await lastSeq();
    const records = (await insert('assigned', [{ Title: 'x', Owner: { Id: 2 } }, { Title: 'y', Owner: { Id: 1 } }], { bulk: true })).records();
    expect(records.map((r) => r.Title)).toEqual(['x', 'y']);
    expect(await db('pbase.assigned').orderBy('id').select('title', 'owner_id')).toEqual([{ title: 'x', owner_id: 2 }, { title: 'y', owner_id: 1 }]);
    expect((await eventsAfter(seq)).map((e) => e.rows.map((r) => r.Title))).toEqual([['x', 'y']]);
    await expect(insert('assigned', [{ Title: 'ghost', Owner: { Id: 99 } }])).rejects.toMatchObject({ status: 404 });
    expect(await db('pbase.assigned').where({ title: 'ghost' })).toEqual([]);
  });
});

describe('tables the one statement cannot serve', () => {
  it('an external pg table of plain columns: the rows in their transaction, the event in another one after it', async () => {
    const seq = await lastSeq();
    const records = (await insert('xplain', [{ Name: 'x1', Score: 1 }, { Name: 'x2', Score: 2 }], { bulk: true })).records();
    expect(records.map((r) => [r.Name, r.Score])).toEqual([['x1', 1], ['x2', 2]]);
    const events = await eventsAfter(seq);
    expect(events.map((e) => [e.key, e.operation, e.rows])).toEqual([['mxplain0000000', RecordOperation.BULK_INSERT, records]]);
    const rowTx = await insertedBy(db, 'xplain.plain', records.map((r) => r.Id));
    expect(rowTx[0]).toBe(rowTx[1]);
    expect(rowTx[0]).not.toBe(events[0].tx);
  });

  it('a table without an order column', async () => {
    const seq = await lastSeq();
    const records = (await insert('bare', [{ Name: 'n1' }, { Name: 'n2' }], { bulk: true })).records();
    expect(records).toEqual([{ Id: expect.any(Number), Name: 'n1' }, { Id: expect.any(Number), Name: 'n2' }]);
    expect((await eventsAfter(seq)).map((e) => e.rows)).toEqual([records]);
  });
});

describe.each(variants.map((v, i) => [v.name, i] as const))('%s: one transaction for the rows, the event after its commit', (name, i) => {
  it('single and bulk inserts stored and answered with every column; one event each, with the rows', async () => {
    const key = name;
    const tableId = `mv${i}`.padEnd(14, '0');
    const seq = await lastSeq();
    const one = (await insert(key, [{ Title: 'e1', Count: 5, Code: `c-${i}` }])).records();
    expect(one).toEqual([expect.objectContaining({ Title: 'e1', Count: 5, Code: `c-${i}`, Id: expect.any(Number) })]);
    const bulk = (await insert(key, [{ Title: 'e2' }, { Title: 'e3', Done: true }], { bulk: true })).records();
    expect(bulk.map((r) => [r.Title, r.Done])).toEqual([['e2', false], ['e3', true]]);
    expect(bulk[0].nc_created_by ?? bulk[0].CreatedBy ?? editor.id).toBe(editor.id);
    const events = await eventsAfter(seq);
    expect(events.map((e) => [e.key, e.operation, e.rows])).toEqual([[tableId, RecordOperation.INSERT, one], [tableId, RecordOperation.BULK_INSERT, bulk]]);
    await expect(insert(key, [{ Title: 'e4', Code: 'fresh' }, { Title: 'e5', Code: `c-${i}` }], { bulk: true })).rejects.toThrow(/^Record 1: /);
    expect(await eventsAfter(seq)).toHaveLength(2);
  });
});
