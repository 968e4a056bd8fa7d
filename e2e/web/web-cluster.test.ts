import os from 'node:os';
import path from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';
import { createTestDatabase, describeWithBackend, entryArgs, freePort, freePortBase, skipMarker, waitHealthy, type TestDatabase } from '@tabula/testing';
import { clusterServiceOffsets } from '@tabula/runtime';
import { PASSWORD, browserMissing, launchChromium, root, screenshot } from './web.helpers';

/**
 * Cluster mode (`npm run start:cluster`: every service its own process, the
 * gateway in front) serves the app at `/` through the gateway, as standalone
 * does: the page with its CSP, its assets, and in chromium a sign-up that
 * reaches the bases page, every call crossing the gateway to auth and meta.
 */
describeWithBackend('redis', 'the web app in cluster mode (start:cluster, the gateway serves it)', () => {
  let database: TestDatabase;
  let launcher: ChildProcess | undefined;
  let output = '';
  let url = '';
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tabula-web-cluster-'));
  const missing = browserMissing();

  beforeAll(async () => {
    database = await createTestDatabase();
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    const env: NodeJS.ProcessEnv = {
      ...process.env, EVENT_BUS: 'redis', EVENT_TOPIC_PREFIX: path.basename(dataDir).replace(/[^A-Za-z0-9_-]/g, ''), DATA_DIR: dataDir,
      DATABASE_URL: database.url, PORT: String(port), HOST: '127.0.0.1', SERVICE_PORT_BASE: String(await freePortBase(Object.values(clusterServiceOffsets))),
      LOG_LEVEL: 'warn', OTEL_SDK_DISABLED: 'true',
    };
    for (const name of ['SVC_JWT_SECRET', 'SVC_INTERNAL_SECRET', 'SVC_ENCRYPTION_KEYS', 'TABULA_MODE', 'npm_lifecycle_event', 'SVC_WEB_DIR', 'DATA_DATABASE_URL']) delete env[name];
    for (const name of Object.keys(env)) if (name.endsWith('_SERVICE_URL') || /^[A-Z]+_PORT$/.test(name)) delete env[name];
    // `npm run start:cluster` is `node dist/cluster/main.js`: the same launcher, run here on free ports.
    launcher = spawn(process.execPath, entryArgs('scripts/start-cluster.ts'), { cwd: root, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    launcher.stdout?.on('data', (chunk) => { output += chunk; });
    launcher.stderr?.on('data', (chunk) => { output += chunk; });
    await waitHealthy(`${url}/readyz`, 120_000).catch((err: Error) => { throw new Error(`${err.message}\n${output}`); });
  }, 180_000);

  afterAll(async () => {
    const child = launcher;
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      process.kill(-child.pid!, 'SIGTERM'); // the launcher's process group: it and every service drain
      await exited;
    }
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('GET / is index.html with the CSP header; its script loads; an unknown API path is still 404 JSON', async () => {
    const page = await fetch(`${url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    const html = await page.text();
    const script = /<script[^>]+src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(`${url}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    expect((await asset.text()).length).toBeGreaterThan(10_000);
    expect((await fetch(`${url}/bases/some/tables/else`)).status).toBe(200); // a client route: the page
    const unknown = await fetch(`${url}/api/v1/nothing-here`);
    expect([unknown.status, ((await unknown.json()) as { error: string }).error]).toEqual([404, 'ERR_NOT_FOUND']);
  });

  (missing ? it.skip : it)(`in chromium the sign-in page renders and a sign-up reaches the bases page${missing ? ` ${skipMarker(missing)}` : ''}`, async () => {
    const browser = await launchChromium();
    try {
      const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
      page.setDefaultTimeout(15_000);
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.goto(url);
      await page.getByRole('heading', { name: 'Sign in to Tabula' }).waitFor();
      await page.getByRole('link', { name: 'Create an account' }).click();
      await page.getByLabel('E-mail').fill(`cluster-${Date.now()}@example.com`);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign up' }).click();
      await page.getByRole('heading', { name: 'Bases' }).waitFor();
      await page.getByText('No bases yet.').waitFor();
      await screenshot(page, 'cluster-bases', 'cluster mode: the bases page after a sign-up, served by the gateway of start:cluster');
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 60_000);
});
