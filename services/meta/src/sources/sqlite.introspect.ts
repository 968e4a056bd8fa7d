import type { Knex } from 'knex';
import type { IntrospectedTable } from './type-to-uidt';

interface PragmaColumn {
  name: string;
  type: string;
  notnull: number;
  pk: number;
}

/** Lists the tables of a SQLite file with their columns (PRAGMA table_info). */
export async function introspectSqlite(knex: Knex): Promise<IntrospectedTable[]> {
  const tables = (await knex('sqlite_master').where({ type: 'table' }).andWhereNot('name', 'like', 'sqlite_%').orderBy('name').pluck('name')) as string[];
  const out: IntrospectedTable[] = [];
  for (const table_name of tables) {
    // table names come from sqlite_master, and are quoted by knex's identifier wrapper
    const cols = (await knex.raw('SELECT * FROM pragma_table_info(?)', [table_name])) as PragmaColumn[];
    out.push({
      table_name,
      columns: cols.map((c) => ({
        column_name: c.name, dt: c.type || 'text', rqd: c.notnull === 1, pk: c.pk > 0,
        ai: c.pk > 0 && /^integer$/i.test(c.type), cdf: null,
      })),
    });
  }
  return out;
}
