import { randomBytes } from 'node:crypto';
import knex from 'knex';
import { backendUrl, describeWithBackend } from '@tabula/testing';
import { formulaSuite } from './fixtures/formula-suite';

function mysqlConnection(url: string, database?: string) {
  const parsed = new URL(url);
  return {
    host: parsed.hostname,
    port: Number(parsed.port || 3306),
    user: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
    database: database ?? (parsed.pathname.slice(1) || undefined),
    timezone: 'Z',
  };
}

describeWithBackend('mysql', 'formulas on MariaDB/MySQL', () => {
  formulaSuite('mysql2', async () => {
    const url = backendUrl('mysql') as string;
    const name = `tabula_query_${randomBytes(4).toString('hex')}`;
    const admin = knex({ client: 'mysql2', connection: mysqlConnection(url), pool: { min: 0, max: 1 } });
    await admin.raw('CREATE DATABASE ??', [name]);
    const db = knex({ client: 'mysql2', connection: mysqlConnection(url, name), pool: { min: 0, max: 2 } });
    return {
      db,
      async close() {
        await db.destroy();
        await admin.raw('DROP DATABASE IF EXISTS ??', [name]);
        await admin.destroy();
      },
    };
  });
});
