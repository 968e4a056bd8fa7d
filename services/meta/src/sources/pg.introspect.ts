import type { Knex } from 'knex';
import type { IntrospectedTable } from './type-to-uidt';

/** Lists the base tables of a PostgreSQL schema with their columns and primary keys. */
export async function introspectPg(knex: Knex, schema: string): Promise<IntrospectedTable[]> {
  const cols = await knex('information_schema.columns')
    .select('table_name', 'column_name', 'data_type', 'is_nullable', 'column_default', 'is_identity', 'character_maximum_length')
    .where({ table_schema: schema }).orderBy(['table_name', 'ordinal_position']);
  const tables = await knex('information_schema.tables').pluck('table_name').where({ table_schema: schema, table_type: 'BASE TABLE' });
  const pks = await knex('information_schema.table_constraints as tc')
    .join('information_schema.key_column_usage as k', function on() {
      this.on('tc.constraint_name', 'k.constraint_name').andOn('tc.table_schema', 'k.table_schema');
    })
    .where({ 'tc.table_schema': schema, 'tc.constraint_type': 'PRIMARY KEY' }).select('k.table_name', 'k.column_name');
  const pkSet = new Set(pks.map((p: { table_name: string; column_name: string }) => `${p.table_name}.${p.column_name}`));
  return (tables as string[]).sort().map((table_name) => ({
    table_name,
    columns: cols.filter((c: { table_name: string }) => c.table_name === table_name).map((c: Record<string, string | null>) => ({
      column_name: c.column_name!, dt: c.data_type!, dtxp: c.character_maximum_length, rqd: c.is_nullable === 'NO',
      pk: pkSet.has(`${table_name}.${c.column_name}`),
      ai: c.is_identity === 'YES' || /^nextval\(/.test(c.column_default ?? ''), cdf: null,
    })),
  }));
}
