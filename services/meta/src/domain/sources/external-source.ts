import type { Knex } from 'knex';
import type { Principal } from '@tabula/auth';
import type { Dialect, SourceHandle } from '../../ddl/dialect';
import { newId } from '@tabula/db';
import type { ColumnRow } from '../../repositories/column.repository';
import { externalKnex, type SealedSourceConfig } from '../../sources/source-registry';
import { connectionOf, pgSchemaOf } from '../../sources/external-config';
import { assertSourceHostsAllowed, unreachable, withConnectTimeout } from '../../sources/source-host.policy';
import { introspectPg } from '../../sources/pg.introspect';
import { introspectMysql } from '../../sources/mysql.introspect';
import { introspectSqlite } from '../../sources/sqlite.introspect';
import { uidtOf, type IntrospectedTable } from '../../sources/type-to-uidt';
import { uniqueName } from '../rules/name-rules';
import { persistTable } from '../tables/persist-table';

/** Where external sources may point (README: `SVC_ALLOW_LOCAL_SOURCES`). */
export interface SourcePolicy {
  dataDir: string;
  allowLocal: boolean;
}

/**
 * Validates an external source's settings, applies the host address policy
 * and checks that it answers within a short timeout. Every connection
 * failure gets the same message: driver codes and messages would tell a
 * closed port from a wrong password (a port scanner) and can carry the user
 * name or host; credentials are never echoed.
 */
export async function checkExternalSource(type: Dialect, config: unknown, policy: SourcePolicy): Promise<SealedSourceConfig> {
  const connection = withConnectTimeout(type, connectionOf(type, config, policy.dataDir));
  await assertSourceHostsAllowed(type, connection, policy.allowLocal);
  const sealed: SealedSourceConfig = { connection, schema: type === 'pg' ? pgSchemaOf(config) : undefined };
  const knex = externalKnex(type, connection);
  try {
    await knex.raw('select 1');
  } catch {
    throw unreachable(type);
  } finally {
    await knex.destroy();
  }
  return sealed;
}

async function introspect(handle: SourceHandle): Promise<IntrospectedTable[]> {
  if (handle.dialect === 'pg') return introspectPg(handle.knex, handle.schema ?? 'public');
  if (handle.dialect === 'mysql2') return introspectMysql(handle.knex);
  return introspectSqlite(handle.knex);
}

function columnsOf(t: IntrospectedTable, tableId: string, baseId: string): ColumnRow[] {
  const titles: string[] = [];
  return t.columns.map((c, i) => {
    const title = uniqueName(c.column_name.slice(0, 255), titles);
    titles.push(title);
    return {
      id: newId('c'), fk_model_id: tableId, base_id: baseId, title, column_name: c.column_name, uidt: uidtOf(c),
      dt: c.dt, dtxp: c.dtxp ?? null, dtxs: null, pk: c.pk, pv: false, rqd: c.rqd, unique: false, ai: c.ai, au: false,
      system: false, cdf: c.cdf ?? null, meta: null, order: i + 1, description: null, col_options: null,
    };
  });
}

/** Reads the source's tables into table and column metadata (one transaction). */
export async function importSourceTables(
  trx: Knex, source: { id: string; base_id: string }, handle: SourceHandle, principal: Principal,
): Promise<number> {
  const tables = await introspect(handle);
  const titles: string[] = [];
  for (const [i, t] of tables.entries()) {
    const id = newId('m');
    const title = uniqueName(t.table_name.slice(0, 255), titles);
    titles.push(title);
    await persistTable(trx, {
      id, base_id: source.base_id, source_id: source.id, table_name: t.table_name, title, type: 'table',
      meta: null, description: null, order: i + 1, deleted: false,
    }, columnsOf(t, id, source.base_id), principal);
  }
  return tables.length;
}
