import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { buildSync } from 'esbuild';

const root = path.resolve(__dirname, '..', '..');

/**
 * The arguments that run a bench process from an esbuild bundle, built like
 * the shipped ones (scripts/build-service.mjs: npm packages external, @tabula/*
 * bundled in): what `npm start` and the images run, not tsx's per-module
 * transpiled code (whose export getters and name helpers cost a few % per
 * request). `entry` is relative to the repository root; the bundle goes to
 * dist/bench/<name>.js.
 */
export function bundledArgs(entry: string): string[] {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { dependencies?: object; devDependencies?: object };
  const outfile = path.join(root, 'dist', 'bench', `${path.basename(entry, '.ts')}.js`);
  buildSync({
    entryPoints: [path.join(root, entry)], outfile, bundle: true, platform: 'node', target: 'node20', format: 'cjs', sourcemap: true,
    external: Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }), tsconfig: path.join(root, 'tsconfig.json'), logLevel: 'warning',
  });
  return [outfile];
}

/** `npm run start:cluster`'s entry (the shipped bundle, rebuilt with the services it spawns). */
export function clusterArgs(): string[] {
  execFileSync(process.execPath, [path.join(root, 'scripts', 'build-service.mjs'), 'all'], { stdio: 'ignore' });
  return [path.join(root, 'dist', 'cluster', 'main.js')];
}
