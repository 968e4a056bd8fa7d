import os from 'node:os';
import path from 'node:path';
import { mkdtempSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import knexFactory, { type Knex } from 'knex';
import type { TableContext } from '@tabula/contracts';
import { backendUrl } from '@tabula/testing';
import { createTasksTable, tasksContext } from './table.fixture';

/** Where the test table lives: the default source or an external one. */
export interface SourceVariant {
  name: string;
  /** Creates the `tasks` table and answers the context meta would send; `dataUrl` is the test's PostgreSQL database. */
  setup(dataUrl: string): Promise<TableContext>;
  /** Drops what setup created outside the test's PostgreSQL database. */
  teardown?(): Promise<void>;
}

async function withKnex<T>(config: Knex.Config, work: (db: Knex) => Promise<T>): Promise<T> {
  const db = knexFactory({ useNullAsDefault: true, ...config });
  try { return await work(db); } finally { await db.destroy(); }
}

/** Default pg source, external pg, SQLite (always) and MariaDB (when MYSQL_URL is set). */
export const sourceVariants: SourceVariant[] = [
  {
    name: 'default source',
    setup: (url) => withKnex({ client: 'pg', connection: url }, async (db) => { await createTasksTable(db, 'pbase'); return tasksContext('pbase'); }),
  },
  {
    name: 'external PostgreSQL',
    setup: (url) => withKnex({ client: 'pg', connection: url }, async (db) => {
      await createTasksTable(db, 'ext');
      return tasksContext('ext', { is_meta: false, type: 'pg', connection: url });
    }),
  },
  {
    name: 'external SQLite',
    setup: async () => {
      const filename = path.join(mkdtempSync(path.join(os.tmpdir(), 'tabula-data-')), 'ext.sqlite');
      await withKnex({ client: 'sqlite3', connection: { filename } }, (db) => createTasksTable(db));
      return tasksContext(undefined, { is_meta: false, type: 'sqlite3', connection: { filename } });
    },
  },
];

/** A MariaDB variant on a fresh database of MYSQL_URL (undefined when it is not set). */
export function mysqlVariant(): SourceVariant | undefined {
  const admin = backendUrl('mysql');
  if (!admin) return undefined;
  const name = `tabula_data_${randomBytes(4).toString('hex')}`;
  return {
    name: 'external MariaDB',
    teardown: () => withKnex({ client: 'mysql2', connection: admin }, async (db) => { await db.raw(`drop database if exists \`${name}\``); }),
    setup: async () => {
      await withKnex({ client: 'mysql2', connection: admin }, (db) => db.raw(`create database \`${name}\``));
      const url = new URL(admin);
      url.pathname = `/${name}`;
      await withKnex({ client: 'mysql2', connection: url.toString() }, (db) => createTasksTable(db));
      return tasksContext(undefined, { is_meta: false, type: 'mysql2', connection: url.toString() });
    },
  };
}
