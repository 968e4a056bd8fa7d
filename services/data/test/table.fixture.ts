import type { Knex } from 'knex';
import type { ColumnInfo, TableContext } from '@tabula/contracts';

let n = 0;
const col = (title: string, column_name: string, uidt: string, extra: Partial<ColumnInfo> = {}): ColumnInfo => ({
  id: `c${String(++n).padStart(14, '0')}`, fk_model_id: 'mtasks00000000', title, column_name, uidt, dt: null,
  pk: false, pv: false, rqd: false, unique: false, ai: false, au: false, system: false, order: n, ...extra,
});

/** The columns of the test table `tasks`: system columns plus one column per interesting uidt. */
export function taskColumns(dialect: 'pg' | 'mysql2' | 'sqlite3' = 'pg'): ColumnInfo[] {
  n = 0;
  const ts = dialect === 'pg' ? 'timestamp with time zone' : dialect === 'mysql2' ? 'timestamp' : 'datetime';
  return [
    col('Id', 'id', 'ID', { pk: true, ai: true, rqd: true, dt: 'integer' }),
    col('CreatedAt', 'created_at', 'CreatedTime', { system: true, dt: ts }),
    col('UpdatedAt', 'updated_at', 'LastModifiedTime', { system: true, dt: ts }),
    col('nc_created_by', 'created_by', 'CreatedBy', { system: true, dt: 'character varying' }),
    col('nc_updated_by', 'updated_by', 'LastModifiedBy', { system: true, dt: 'character varying' }),
    col('nc_order', 'nc_order', 'Order', { system: true, dt: 'decimal' }),
    col('Title', 'title', 'SingleLineText', { pv: true, rqd: true, dt: 'text' }),
    col('Email', 'email', 'Email', { dt: 'character varying' }),
    col('Count', 'count', 'Number', { dt: 'bigint' }),
    col('Price', 'price', 'Decimal', { dt: 'decimal', dtxs: 2 }),
    col('Done', 'done', 'Checkbox', { dt: 'boolean', cdf: 'false' }),
    col('Due', 'due', 'Date', { dt: 'date' }),
    col('At', 'at', 'DateTime', { dt: 'timestamp' }),
    col('Status', 'status', 'SingleSelect', { dt: 'text', colOptions: { options: [{ title: 'todo' }, { title: 'done' }] } }),
    col('Tags', 'tags', 'MultiSelect', { dt: 'text', colOptions: { options: [{ title: 'a' }, { title: 'b' }, { title: 'c' }] } }),
    col('Files', 'files', 'Attachment', { dt: 'text' }),
    col('Code', 'code', 'SingleLineText', { dt: 'character varying', unique: true }),
  ];
}

/** Creates `<schema>.tasks` the way the meta service does for a default source. */
export async function createTasksTable(db: Knex, schema?: string): Promise<void> {
  if (schema) await db.raw(`create schema if not exists "${schema}"`);
  const builder = schema ? db.schema.withSchema(schema) : db.schema;
  await builder.createTable('tasks', (t) => {
    t.increments('id', { primaryKey: true });
    t.timestamp('created_at', { useTz: true }).nullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).nullable().defaultTo(db.fn.now());
    t.string('created_by', 255).nullable();
    t.string('updated_by', 255).nullable();
    t.decimal('nc_order', 38, 10).nullable().index();
    t.text('title').notNullable();
    t.string('email', 255);
    t.bigInteger('count');
    t.decimal('price', 12, 2);
    t.boolean('done').defaultTo(false);
    t.date('due');
    t.timestamp('at', { useTz: false });
    t.text('status');
    t.text('tags');
    t.text('files');
    t.string('code', 255).unique();
  });
}

/** The context the meta service would answer for the table, with a view hiding Email and filtering Done = true. */
export function tasksContext(schema: string | undefined, source: Partial<TableContext['source']> = {}): TableContext {
  const columns = taskColumns(source.type ?? 'pg');
  const byTitle = (t: string) => columns.find((c) => c.title === t) as ColumnInfo;
  return {
    base: { id: 'pbase0000000001', title: 'Base One' },
    source: { id: 'bsrc0000000001', base_id: 'pbase0000000001', type: 'pg', is_meta: true, schema, ...source },
    table: {
      id: 'mtasks00000000', base_id: 'pbase0000000001', source_id: 'bsrc0000000001', table_name: 'tasks', title: 'Tasks', type: 'table', columns,
      views: [{
        id: 'vwdone00000000', title: 'Done only', type: 'grid', fk_model_id: 'mtasks00000000', is_default: false,
        columns: columns.map((c, i) => ({ fk_column_id: c.id, show: c.title !== 'Email', order: i })),
        filters: [{ id: 'fi1', fk_column_id: byTitle('Done').id, comparison_op: 'checked', logical_op: 'and' }],
        sorts: [{ id: 'so1', fk_column_id: byTitle('Count').id, direction: 'desc', order: 1 }],
      }],
    },
  };
}
