import path from 'node:path';
import { createRequire } from 'node:module';
import { build } from 'esbuild';
import type { Plugin } from 'vite';

/**
 * The browser gets the contracts' routes, not their schemas. The app imports
 * endpoints from `libs/contracts/src/...` (TypeScript checks every call
 * against the real contract: params, query, body and response types), but a
 * contract module's runtime is zod schemas: ~100 kB gzip of zod and schema
 * definitions, more than the whole app. So in the bundle each contract module
 * is replaced by what the client reads at run time: for each exported endpoint
 * (or record of endpoints) its `{ id, method, path }`, computed here at build
 * time from the real module. A name the app imports that is no endpoint fails
 * the build ("not exported"), so nothing silently goes missing.
 * `endpoint/` stays itself: plain TypeScript without zod at run time (the
 * client uses its `fillPath`; `access.ts` holds the roles' permissions).
 */
export function contractRoutes(contractsDir: string): Plugin {
  const kept = path.join(contractsDir, 'endpoint') + path.sep;
  return {
    name: 'tabula-contract-routes',
    enforce: 'pre',
    async load(id) {
      const file = id.split('?')[0];
      if (!file.startsWith(contractsDir + path.sep) || file.startsWith(kept)) return null;
      const exports = await evaluate(file);
      const lines = Object.entries(exports).flatMap(([name, value]) => {
        const routes = routesOf(value);
        return routes === undefined ? [] : [`export const ${name} = ${JSON.stringify(routes)};`];
      });
      return lines.join('\n');
    },
  };
}

interface Route { id: string; method: string; path: string }

function isEndpoint(value: unknown): value is Route & { access: string } {
  const v = value as Partial<Route> & { access?: unknown } | null;
  return typeof v === 'object' && v !== null && typeof v.id === 'string' && typeof v.method === 'string'
    && typeof v.path === 'string' && typeof v.access === 'string';
}

/** An endpoint's route, or a record of them (e.g. `accountV1`); undefined for anything else. */
function routesOf(value: unknown): Route | Record<string, Route> | undefined {
  if (isEndpoint(value)) return { id: value.id, method: value.method, path: value.path };
  if (typeof value !== 'object' || value === null) return undefined;
  const entries = Object.entries(value).filter(([, v]) => isEndpoint(v)) as [string, Route][];
  if (entries.length === 0) return undefined;
  return Object.fromEntries(entries.map(([k, e]) => [k, { id: e.id, method: e.method, path: e.path }]));
}

/** Runs a contract module in Node (bundled by esbuild, packages from node_modules) and returns its exports. */
async function evaluate(file: string): Promise<Record<string, unknown>> {
  const result = await build({ entryPoints: [file], bundle: true, platform: 'node', format: 'cjs', packages: 'external', write: false, logLevel: 'silent' });
  const module = { exports: {} as Record<string, unknown> };
  const run = new Function('module', 'exports', 'require', result.outputFiles[0].text) as (m: unknown, e: unknown, r: NodeRequire) => void;
  run(module, module.exports, createRequire(file));
  return module.exports;
}
