import type { Knex } from 'knex';
import { z } from 'zod';
import { errors } from '@tabula/http';
import type { IntegrationsPorts } from '../../ports';
import { withDatabase } from './database-client';

type Dialect = 'pg' | 'mysql2' | 'sqlite3';

const tableBody = z.object({ tableName: z.string().min(1, 'tableName is required').max(255) });

function pgSchema(config: Record<string, unknown>): string {
  const sp = config.searchPath;
  return Array.isArray(sp) && typeof sp[0] === 'string' ? sp[0] : 'public';
}

async function tables(knex: Knex, dialect: Dialect, config: Record<string, unknown>): Promise<string[]> {
  if (dialect === 'sqlite3') {
    const rows = (await knex.raw(`select name from sqlite_master where type in ('table','view') and name not like 'sqlite_%' order by name`)) as { name: string }[];
    return rows.map((r) => r.name);
  }
  const q = knex('information_schema.tables').select('table_name as name').orderBy('table_name');
  if (dialect === 'pg') q.where('table_schema', pgSchema(config));
  else q.whereRaw('table_schema = database()');
  return ((await q) as { name: string }[]).map((r) => r.name);
}

async function columns(knex: Knex, dialect: Dialect, config: Record<string, unknown>, table: string) {
  if (dialect === 'sqlite3') {
    const rows = (await knex.raw('select name, type, "notnull", pk from pragma_table_info(?)', [table])) as { name: string; type: string; notnull: number; pk: number }[];
    return rows.map((r) => ({ column_name: r.name, data_type: r.type.toLowerCase(), nullable: !r.notnull, pk: r.pk > 0 }));
  }
  const q = knex('information_schema.columns').select('column_name', 'data_type', 'is_nullable').where('table_name', table).orderBy('ordinal_position');
  if (dialect === 'pg') q.where('table_schema', pgSchema(config));
  else q.whereRaw('table_schema = database()');
  const rows = (await q) as { column_name?: string; COLUMN_NAME?: string; data_type?: string; DATA_TYPE?: string; is_nullable?: string; IS_NULLABLE?: string }[];
  return rows.map((r) => ({
    column_name: String(r.column_name ?? r.COLUMN_NAME), data_type: String(r.data_type ?? r.DATA_TYPE),
    nullable: (r.is_nullable ?? r.IS_NULLABLE) === 'YES',
  }));
}

/** Database endpoints: testConnection (really connects), listTables, listColumns ({tableName}). */
export async function callDatabaseEndpoint(
  ports: IntegrationsPorts, dialect: Dialect, endpoint: string, config: Record<string, unknown>, body: Record<string, unknown>,
): Promise<unknown> {
  if (endpoint === 'testConnection') {
    return withDatabase(ports, dialect, config, async (knex) => {
      const started = Date.now();
      await knex.raw('select 1');
      return { success: true, ms: Date.now() - started };
    });
  }
  if (endpoint === 'listTables') return withDatabase(ports, dialect, config, async (knex) => ({ list: await tables(knex, dialect, config) }));
  if (endpoint === 'listColumns') {
    const { tableName } = tableBody.parse(body);
    return withDatabase(ports, dialect, config, async (knex) => {
      const list = await columns(knex, dialect, config, tableName);
      if (list.length === 0) throw errors.notFound('ERR_TABLE_NOT_FOUND', `Table '${tableName}' not found`);
      return { list };
    });
  }
  throw errors.notFound('ERR_INTEGRATION_ENDPOINT_NOT_FOUND', `Unknown endpoint '${endpoint}'`);
}
