import knexFactory, { type Knex } from 'knex';
import { RecordOperation, RecordsChangedSchema, decodeEvent, type ColumnInfo, type TableContext } from '@tabula/contracts';
import type { Principal } from '@tabula/auth';
import { startDataHarness, type DataHarness } from './data-app.harness';
import { createTasksTable, tasksContext } from './table.fixture';
import { mysqlVariant, sourceVariants, type SourceVariant } from './source-variants';
import { insertedBy, installTxLog } from './tx-log.fixture';
import { insertRecordsAs, type InsertOptions } from '../src/domain/insert-records';
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
  await installTxLog(db, ['data.outbox', 'pbase.plain', 'pbase.tasks']);
  const { people, assigned } = linkContexts();
  const contexts: [string, TableContext][] = [['tasks', tasksContext('pbase')], ['plain', plainContext()], ['formula', formulaContext()],
    ['people', people], ['assigned', assigned]];
  for (const [i, variant] of variants.entries()) contexts.push([variant.name, ownIds(await variant.setup(h.database.url), `v${i}`)]);
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

describe('default pg source, the transactional path', () => {
  it('a table with attachment and unique columns: rows and event in one transaction, answered as stored', async () => {
    const seq = await lastSeq();
    const { result, sql } = await statementsOf('tasks', () => insert('tasks', [{ Title: 't1', Code: 'k1', Count: 3 }, { Title: 't2', Done: true }], { bulk: true }));
    expect(writes(sql).length).toBeGreaterThan(0);
    expect(writes(sql).every((s) => s.inTx)).toBe(true);
    const records = result.records();
    expect(records).toEqual([expect.objectContaining({ Title: 't1', Code: 'k1', Count: 3, Done: false }), expect.objectContaining({ Title: 't2', Code: null, Done: true })]);
    const events = await eventsAfter(seq);
    expect(events.map((e) => [e.key, e.operation, e.rows])).toEqual([['mtasks00000000', RecordOperation.BULK_INSERT, records]]);
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
