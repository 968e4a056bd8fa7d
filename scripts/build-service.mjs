// Bundles process entries with esbuild (npm packages stay external; @tabula/*
// libraries are bundled in): each service into dist/<service>/main.js (what the
// container image runs: `node dist/<service>/main.js`), the standalone server
// into dist/standalone/main.js (`npm start`) and the cluster launcher into
// dist/cluster/main.js (`npm run start:cluster`).
//   node scripts/build-service.mjs <name...>   |   node scripts/build-service.mjs all
// `npm install` runs it with `all` (the prepare script).
import { build } from 'esbuild';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const external = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies });

/** Entry file of every buildable name. */
function entries() {
  const found = { standalone: 'scripts/start-standalone.ts', cluster: 'scripts/start-cluster.ts' };
  for (const name of readdirSync(path.join(root, 'services'))) {
    const main = path.join('services', name, 'src', 'main.ts');
    if (existsSync(path.join(root, main))) found[name] = main;
  }
  return found;
}

const all = entries();
const args = process.argv.slice(2);
const names = args.includes('all') ? Object.keys(all) : args;
if (names.length === 0 || names.some((name) => !all[name])) {
  throw new Error(`usage: build-service.mjs <${Object.keys(all).join('|')}|all>...`);
}
const started = Date.now();
await Promise.all(names.map((name) => build({
  entryPoints: [path.join(root, all[name])],
  outfile: path.join(root, 'dist', name, 'main.js'),
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  external,
  tsconfig: path.join(root, 'tsconfig.json'),
  logLevel: 'warning',
})));
console.log(`built ${names.map((name) => `dist/${name}/main.js`).join(', ')} in ${Date.now() - started} ms`);
