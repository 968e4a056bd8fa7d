import { execFileSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..');
const builder = path.join(root, 'scripts', 'build-service.mjs');

/**
 * The arguments that run a bench process from an esbuild bundle built like
 * the shipped ones (scripts/build-service.mjs, same options): what `npm start`
 * and the images run, not tsx's per-module transpiled code (whose export
 * getters and name helpers cost a few % per request). `entry` is relative to
 * the repository root; the bundle goes to dist/bench/<name>.js.
 */
export function bundledArgs(entry: string): string[] {
  const outfile = path.join('dist', 'bench', `${path.basename(entry, '.ts')}.js`);
  execFileSync(process.execPath, [builder, '--entry', entry, '--outfile', outfile], { cwd: root, stdio: 'ignore' });
  return [path.join(root, outfile)];
}

/** `npm run start:cluster`'s entry (the shipped bundle, rebuilt with the services it spawns). */
export function clusterArgs(): string[] {
  execFileSync(process.execPath, [builder, 'all'], { cwd: root, stdio: 'ignore' });
  return [path.join(root, 'dist', 'cluster', 'main.js')];
}
