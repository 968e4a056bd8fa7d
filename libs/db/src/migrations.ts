import type { Knex } from 'knex';

/** One migration of a service's schema. */
export interface Migration {
  name: string;
  up(db: Knex, schema: string): Promise<void>;
  down?(db: Knex, schema: string): Promise<void>;
}

const IDENT = /^[a-z_][a-z0-9_]{0,62}$/;

/** Quotes a schema or table name that we generated ourselves (validated, never user text). */
export function ident(name: string): string {
  if (!IDENT.test(name)) throw new Error(`invalid identifier ${JSON.stringify(name)}`);
  return `"${name}"`;
}

/**
 * Runs a service's migrations inside its own schema (created if missing), with
 * knex's lock so several replicas starting at once migrate once.
 */
export async function runMigrations(db: Knex, schema: string, migrations: Migration[]): Promise<string[]> {
  await db.raw(`CREATE SCHEMA IF NOT EXISTS ${ident(schema)}`);
  const source: Knex.MigrationSource<Migration> = {
    getMigrations: async () => migrations,
    getMigrationName: (m) => m.name,
    getMigration: async (m) => ({
      up: (k: Knex) => m.up(k, schema),
      down: (k: Knex) => (m.down ? m.down(k, schema) : Promise.resolve()),
    }),
  };
  const [, applied] = await db.migrate.latest({ migrationSource: source, schemaName: schema, tableName: 'knex_migrations' });
  return applied as string[];
}
