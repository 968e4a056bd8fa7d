// Bundles one service's process entry into dist/<service>/main.js with esbuild
// (npm packages stay external; @tabula/* libraries are bundled in). This is what
// the container image runs: `node dist/<service>/main.js`.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const service = process.argv[2];
if (!service) throw new Error('usage: build-service.mjs <service>');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const external = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies });
await build({
  entryPoints: [path.join(root, 'services', service, 'src', 'main.ts')],
  outfile: path.join(root, 'dist', service, 'main.js'),
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  external,
  tsconfig: path.join(root, 'tsconfig.json'),
  logLevel: 'warning',
});
console.log(`built dist/${service}/main.js`);
