import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knex from 'knex';
import { formulaSuite } from './fixtures/formula-suite';

describe('formulas on SQLite', () => {
  formulaSuite('sqlite3', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tabula-query-'));
    const db = knex({ client: 'sqlite3', connection: { filename: path.join(dir, 'ops.sqlite') }, useNullAsDefault: true });
    return {
      db,
      async close() {
        await db.destroy();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  });
});
