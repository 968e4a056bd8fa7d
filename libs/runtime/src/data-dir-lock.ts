import { mkdirSync, openSync, readFileSync, unlinkSync, writeFileSync, closeSync } from 'node:fs';
import path from 'node:path';

/** The lock file under DATA_DIR: JSON `{ pid, port, startedAt }` of the Tabula that holds the folder. */
export const LOCK_FILE = 'tabula.lock';

/** DATA_DIR is held by another running Tabula; the message is one line naming its pid and port. */
export class DataDirInUseError extends Error {
  constructor(readonly dataDir: string, readonly pid: number, readonly port: number | undefined) {
    super(`DATA_DIR ${dataDir} is in use by Tabula (pid ${pid}${port !== undefined ? `, port ${port}` : ''}): stop it or set another DATA_DIR`);
    this.name = 'DataDirInUseError';
  }
}

/** A held DATA_DIR: `setPort` records the port once listening, `release` removes the lock (idempotent). */
export interface DataDirLock {
  file: string;
  setPort(port: number): void;
  release(): void;
}

interface LockContent { pid: number; port?: number; startedAt?: string }

/** True when a process with this pid exists (EPERM: it exists but is someone else's). */
export function processAlive(pid: number): boolean {
  try { process.kill(pid, 0); return true; } catch (err) { return (err as NodeJS.ErrnoException).code === 'EPERM'; }
}

function readLock(file: string): LockContent | undefined {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as LockContent;
    return Number.isInteger(parsed.pid) && parsed.pid > 0 ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes DATA_DIR for this process: creates `DATA_DIR/tabula.lock` exclusively.
 * A lock naming a live process other than this one refuses (DataDirInUseError);
 * a lock whose process is gone (killed, crashed) is stale and taken over.
 * The lock is removed by `release()` and, as a last resort, when the process exits.
 */
export function lockDataDir(dataDir: string, port: number): DataDirLock {
  const dir = path.resolve(dataDir);
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, LOCK_FILE);
  const content: LockContent = { pid: process.pid, port, startedAt: new Date().toISOString() };
  for (let attempt = 0; ; attempt += 1) {
    try {
      const fd = openSync(file, 'wx', 0o644);
      try { writeFileSync(fd, JSON.stringify(content)); } finally { closeSync(fd); }
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 2) throw err;
      const held = readLock(file);
      if (held && held.pid !== process.pid && processAlive(held.pid)) throw new DataDirInUseError(dir, held.pid, held.port);
      // stale (its process is gone), unreadable (a crash mid-write) or our own: take it over
      try { unlinkSync(file); } catch { /* removed meanwhile: retry */ }
    }
  }
  let released = false;
  const release = (): void => {
    if (released) return;
    released = true;
    process.removeListener('exit', release);
    if (readLock(file)?.pid === process.pid) {
      try { unlinkSync(file); } catch { /* already gone */ }
    }
  };
  process.once('exit', release);
  return {
    file,
    setPort(actual: number) {
      if (released) return;
      content.port = actual;
      writeFileSync(file, JSON.stringify(content));
    },
    release,
  };
}
