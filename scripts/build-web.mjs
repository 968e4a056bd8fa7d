// Builds the web app (services/web: React + Vite) into dist/web, which the
// gateway serves at `/` (docs/web.md). `npm install` runs it (the prepare script).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const started = Date.now();
await build({ configFile: path.join(root, 'services/web/vite.config.ts'), logLevel: 'warn' });
console.log(`built dist/web in ${Date.now() - started} ms`);
