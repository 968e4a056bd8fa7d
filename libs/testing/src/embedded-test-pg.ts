import os from 'node:os';
import path from 'node:path';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';

/** Folders of test runs' embedded PostgreSQL live under the temp dir with this prefix. */
export const testPgPrefix = 'tabula-test-pg-';
const ownerFile = 'owner.pid';
const staleWithoutOwnerMs = 60 * 60 * 1000;

function alive(pid: number): boolean {
  try { process.kill(pid, 0); return true; } catch (err) { return (err as NodeJS.ErrnoException).code === 'EPERM'; }
}

/** A killed run's PostgreSQL (own process group) outlives it: ask it to stop (fast shutdown). */
function stopOrphanedServer(dir: string): void {
  try {
    const pid = Number(readFileSync(path.join(dir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
    if (Number.isInteger(pid) && pid > 0 && alive(pid)) process.kill(pid, 'SIGINT');
  } catch {
    // No server ran there, or it is gone.
  }
}

/**
 * Removes folders left behind by earlier runs that were killed before their
 * teardown: those whose owning jest process is gone (or, for folders from
 * before the owner file existed, older than an hour), stopping a server still
 * running there. Returns what it removed.
 */
export function removeStaleTestPg(tmp = os.tmpdir()): string[] {
  const removed: string[] = [];
  for (const name of readdirSync(tmp)) {
    if (!name.startsWith(testPgPrefix)) continue;
    const dir = path.join(tmp, name);
    try {
      let stale: boolean;
      try {
        stale = !alive(Number(readFileSync(path.join(dir, ownerFile), 'utf8')));
      } catch {
        stale = Date.now() - statSync(dir).mtimeMs > staleWithoutOwnerMs;
      }
      if (stale) {
        stopOrphanedServer(dir);
        rmSync(dir, { recursive: true, force: true });
        removed.push(dir);
      }
    } catch {
      // Another run is removing it at the same time.
    }
  }
  return removed;
}

/** A new folder for this run's embedded PostgreSQL, marked with our pid. */
export function createTestPgDir(tmp = os.tmpdir()): string {
  const dir = mkdtempSync(path.join(tmp, testPgPrefix));
  writeFileSync(path.join(dir, ownerFile), String(process.pid));
  return dir;
}
