import path from 'node:path';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { isEndpoint } from '@tabula/contracts';
import * as hooks from '../../libs/contracts/src/hooks/hooks';
import * as account from '../../libs/contracts/src/auth/account';
import { contractRoutes } from '../../services/web/contract-routes';

/**
 * The web app's bundle gets the contracts' routes, not their schemas
 * (services/web/contract-routes.ts): each endpoint a contract module exports
 * becomes its `{ id, method, path }`, as the real contract has them, and no
 * zod reaches the browser.
 */
const root = path.resolve(__dirname, '../..');
const contracts = path.join(root, 'libs/contracts/src');
const plugin = contractRoutes(contracts);
const load = (file: string) => (plugin.load as (id: string) => Promise<string | null>).call({}, path.join(contracts, file));

/** What the plugin's module exports, evaluated. */
function exportsOf(code: string): Record<string, unknown> {
  const exports: Record<string, unknown> = {};
  new Function('exports', code.replace(/^export const (\w+) = /gm, 'exports.$1 = '))(exports);
  return exports;
}

describe('contract routes in the web bundle', () => {
  it('a contract module becomes the routes of its endpoints, equal to the real contracts', async () => {
    const routes = exportsOf((await load('hooks/hooks.ts')) ?? '');
    const real = Object.entries(hooks).filter(([, v]) => isEndpoint(v));
    expect(real.length).toBeGreaterThan(5);
    expect(routes).toEqual(Object.fromEntries(real.map(([name, e]) => [name, { id: (e as any).id, method: (e as any).method, path: (e as any).path }])));
  });

  it('a record of endpoints becomes a record of routes; schemas and other values are left out', async () => {
    const code = (await load('auth/account.ts')) ?? '';
    expect(exportsOf(code).accountV1).toEqual(Object.fromEntries(Object.entries(account.accountV1).map(([k, e]) => [k, { id: e.id, method: e.method, path: e.path }])));
    expect(code).not.toMatch(/signUpBodySchema|zod/);
  });

  it('endpoint/ (fillPath, the access rules: no zod at run time) is bundled as it is', async () => {
    expect(await load('endpoint/define-endpoint.ts')).toBeNull();
    expect(await load('endpoint/access.ts')).toBeNull();
  });

  it('the built app holds no zod (when dist/web is built)', () => {
    const assets = path.join(root, 'dist/web/assets');
    if (!existsSync(assets)) return;
    for (const file of readdirSync(assets).filter((f) => f.endsWith('.js'))) {
      const code = readFileSync(path.join(assets, file), 'utf8');
      expect(code).not.toContain('_zod');
      expect(code).toContain('/api/v2/tables/{tableId}/records');
    }
  });
});
