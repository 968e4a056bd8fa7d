import os from 'node:os';
import path from 'node:path';
import { mkdtempSync, rmSync, statSync, existsSync, readdirSync, mkdirSync, writeFileSync, utimesSync } from 'node:fs';
import { Client } from 'pg';
import { startEmbeddedPostgres } from '../src/embedded-postgres';
import { createTestPgDir, removeStaleTestPg, testPgPrefix } from '../../testing/src/embedded-test-pg';

async function scalar(url: string, sql: string): Promise<unknown> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows[0]?.v;
  } finally {
    await client.end();
  }
}

describe('embedded PostgreSQL', () => {
  // mkdtemp gives 0700 folders, as global-setup's: the server (user postgres when root) must still get in.
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tabula-embedded-test-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('initialises in a private temp folder, keeps data across a restart, and stops its server', async () => {
    const first = await startEmbeddedPostgres({ dataDir: dir });
    await scalar(first.url, 'CREATE TABLE kept AS SELECT 42 AS v');
    expect(await scalar(first.url, 'SELECT count(*)::int AS v FROM kept')).toBe(1);
    await first.stop();
    await expect(scalar(first.url, 'SELECT 1 AS v')).rejects.toThrow();
    const second = await startEmbeddedPostgres({ dataDir: dir });
    try {
      expect(await scalar(second.url, 'SELECT v FROM kept')).toBe(42);
      expect(await scalar(second.url, "SELECT current_setting('server_encoding') AS v")).toBe('UTF8');
    } finally {
      await second.stop();
    }
    expect(existsSync(path.join(dir, 'pg', 'postmaster.pid'))).toBe(false);
    if (process.getuid?.() === 0) expect(statSync(path.join(dir, 'pg')).mode & 0o777).toBe(0o700);
  }, 120_000);
});

describe('test PostgreSQL folders', () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'tabula-stale-test-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('removes folders of dead runs and old unmarked ones, keeps live and recent ones', () => {
    const live = createTestPgDir(tmp);
    const dead = createTestPgDir(tmp);
    writeFileSync(path.join(dead, 'owner.pid'), '2147483646');
    const oldUnmarked = path.join(tmp, `${testPgPrefix}old`);
    mkdirSync(oldUnmarked);
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
    utimesSync(oldUnmarked, twoHoursAgo, twoHoursAgo);
    const recentUnmarked = path.join(tmp, `${testPgPrefix}recent`);
    mkdirSync(recentUnmarked);
    expect(removeStaleTestPg(tmp).sort()).toEqual([dead, oldUnmarked].sort());
    expect(readdirSync(tmp).sort()).toEqual([path.basename(live), path.basename(recentUnmarked)].sort());
  });
});
