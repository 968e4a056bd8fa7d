// Bundles process entries with esbuild (npm packages stay external; @tabula/*
// libraries are bundled in): each service into dist/<service>/main.js (what the
// container image runs: `node dist/<service>/main.js`), the standalone server
// into dist/standalone/main.js (`npm start`) and the cluster launcher into
// dist/cluster/main.js (`npm run start:cluster`).
//   node scripts/build-service.mjs <name...>   |   node scripts/build-service.mjs all
//   node scripts/build-service.mjs --entry <file.ts> --outfile <file.js>   (benchmark processes)
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

/** The one set of bundle options (the shipped bundles and the benchmarks' processes). */
function bundle(entry, outfile) {
  return build({
    entryPoints: [path.join(root, entry)],
    outfile: path.join(root, outfile),
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: true,
    external,
    tsconfig: path.join(root, 'tsconfig.json'),
    logLevel: 'warning',
  });
}

const all = entries();
const args = process.argv.slice(2);
const started = Date.now();
if (args[0] === '--entry') {
  // Any other entry, bundled the same way (scripts/bench/bundled.ts): --entry <file.ts> --outfile <file.js>
  if (args[2] !== '--outfile' || !args[1] || !args[3]) throw new Error('usage: build-service.mjs --entry <file.ts> --outfile <file.js>');
  await bundle(args[1], args[3]);
  console.log(`built ${args[3]} in ${Date.now() - started} ms`);
} else {
  const names = args.includes('all') ? Object.keys(all) : args;
  if (names.length === 0 || names.some((name) => !all[name])) {
    throw new Error(`usage: build-service.mjs <${Object.keys(all).join('|')}|all>... | --entry <file.ts> --outfile <file.js>`);
  }
  await Promise.all(names.map((name) => bundle(all[name], path.join('dist', name, 'main.js'))));
  console.log(`built ${names.map((name) => `dist/${name}/main.js`).join(', ')} in ${Date.now() - started} ms`);
}
