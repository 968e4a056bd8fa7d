import path from 'node:path';
import { defineConfig } from 'vite';
import { contractRoutes } from './contract-routes';

/**
 * The web app's build (scripts/build-web.mjs runs it; output: dist/web).
 * JSX goes through esbuild's automatic runtime (no Babel plugin needed);
 * no inline script or style is emitted, so the CSP can say `script-src 'self'`.
 * Contract modules reach the bundle as their routes only (contract-routes.ts).
 */
export default defineConfig({
  root: __dirname,
  base: '/',
  plugins: [contractRoutes(path.resolve(__dirname, '../../libs/contracts/src'))],
  esbuild: { jsx: 'automatic' },
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
    target: 'es2022',
  },
  server: { proxy: { '/api': 'http://localhost:8080', '/download': 'http://localhost:8080', '/dltemp': 'http://localhost:8080' } },
});
