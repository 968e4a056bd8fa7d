import type { Knex } from 'knex';
import type { IntrospectedTable } from './type-to-uidt';

/** Lists the base tables of the connected MySQL/MariaDB database with their columns. */
export async function introspectMysql(knex: Knex): Promise<IntrospectedTable[]> {
  const [tables] = (await knex.raw(
    "SELECT TABLE_NAME AS t FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_TYPE = 'BASE TABLE' ORDER BY TABLE_NAME",
  )) as [{ t: string }[]];
  const [cols] = (await knex.raw(
    `SELECT TABLE_NAME AS t, COLUMN_NAME AS c, COLUMN_TYPE AS ct, DATA_TYPE AS dt, IS_NULLABLE AS n, COLUMN_KEY AS k, EXTRA AS e
     FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME, ORDINAL_POSITION`,
  )) as [{ t: string; c: string; ct: string; dt: string; n: string; k: string; e: string }[]];
  return tables.map(({ t }) => ({
    table_name: t,
    columns: cols.filter((c) => c.t === t).map((c) => ({
      column_name: c.c, dt: c.ct === 'tinyint(1)' ? 'tinyint(1)' : c.dt, rqd: c.n === 'NO', pk: c.k === 'PRI',
      ai: /auto_increment/i.test(c.e), cdf: null,
    })),
  }));
}
