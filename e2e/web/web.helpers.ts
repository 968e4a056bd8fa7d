import path from 'node:path';
import os from 'node:os';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { deflateSync, gzipSync } from 'node:zlib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createTestDatabase, entryArgs, freePort, skipMarker, waitHealthy, type TestDatabase } from '@tabula/testing';

export const root = path.resolve(__dirname, '../..');
/** Debian's chromium (`.ci/run` installs it); CHROMIUM_PATH overrides. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Where the screenshots go (git-ignored; CI keeps the folder). */
export const SHOTS = path.join(root, 'test-results', 'web');

/** Why the browser suites cannot run here, or undefined when they can. */
export function browserMissing(): string | undefined {
  // CI installs chromium and sets CI_BROWSER=1: there a missing browser fails the suite instead of skipping it.
  if (!existsSync(CHROMIUM) && process.env.CI_BROWSER !== '1') return `no chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`;
  if (!process.env.DATABASE_URL) return 'DATABASE_URL is not set';
  return undefined;
}

/** A real `npm start` process (the standalone bundle) on a fresh database, with the built web app. */
export class StandaloneServer {
  url = '';
  database!: TestDatabase;
  private child?: ChildProcess;
  private output = '';
  private readonly dataDir = mkdtempSync(path.join(os.tmpdir(), 'tabula-web-e2e-'));

  /** Starts it; `extra` adds environment variables (e.g. SVC_ALLOW_LOCAL_SOURCES). */
  async start(extra: NodeJS.ProcessEnv = {}): Promise<void> {
    // npm install builds dist/web (the prepare script); build it here when a checkout has not yet.
    if (!existsSync(path.join(root, 'dist', 'web', 'index.html'))) {
      execFileSync(process.execPath, [path.join(root, 'scripts', 'build-web.mjs')], { cwd: root, stdio: 'ignore' });
    }
    this.database = await createTestDatabase();
    const port = await freePort();
    this.url = `http://127.0.0.1:${port}`;
    const env: NodeJS.ProcessEnv = {
      ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: this.dataDir, DATABASE_URL: this.database.url,
      EVENT_BUS: 'memory', LOG_LEVEL: 'warn', SVC_PUBLIC_URL: this.url,
      // The webhooks page's hooks call a receiver of the test on 127.0.0.1.
      SVC_ALLOW_LOCAL_HOOKS: 'true',
      ...extra,
    };
    for (const name of ['DATA_DATABASE_URL', 'REDIS_URL', 'TABULA_MODE', 'npm_lifecycle_event', 'SVC_WEB_DIR']) delete env[name];
    this.child = spawn(process.execPath, entryArgs('scripts/start-standalone.ts'), { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child.stdout?.on('data', (chunk) => { this.output += chunk; });
    this.child.stderr?.on('data', (chunk) => { this.output += chunk; });
    await waitHealthy(`${this.url}/healthz`, 90_000).catch((err: Error) => { throw new Error(`${err.message}\n${this.output}`); });
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await this.database?.drop();
    rmSync(this.dataDir, { recursive: true, force: true });
  }

  /** A JSON API call (set-up and checks beside the browser). */
  async call<T = any>(method: string, apiPath: string, token?: string, body?: unknown): Promise<{ status: number; body: T }> {
    const response = await fetch(`${this.url}${apiPath}`, {
      method, headers: { ...(token ? { 'xc-auth': token } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
  }
}

export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  // --no-sandbox: CI runs as root in a container, where chromium's sandbox cannot start.
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}

let shot = 0;
/** Saves a numbered screenshot and remembers its description (printed at the end). */
export const screenshots: { file: string; description: string }[] = [];
/**
 * Saves a numbered screenshot under test-results/web/<test file>/ (each file
 * its own folder: suites run in parallel workers) and remembers its description.
 */
export async function screenshot(page: Page, name: string, description: string): Promise<void> {
  const folder = path.join(SHOTS, path.basename(expect.getState().testPath ?? 'web', '.test.ts'));
  // A run's folder holds that run's screenshots only.
  if (shot === 0) rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  shot += 1;
  const file = path.join(folder, `${String(shot).padStart(2, '0')}-${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  screenshots.push({ file: path.relative(root, file), description });
}

export interface AxeSummary { page: string; violations: { id: string; impact: string; nodes: number; help: string }[]; passes: number; incomplete: number }
/** Runs axe-core (injected from node_modules) on the page as it is now. */
export async function axe(page: Page, name: string): Promise<AxeSummary> {
  const source = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  // Evaluated by the test driver: the app's CSP refuses inline script tags (as it should).
  await page.evaluate(source);
  const result = await page.evaluate(async () => {
    const browser = globalThis as any;
    const r = await browser.axe.run(browser.document, { resultTypes: ['violations'] });
    return {
      violations: r.violations.map((v: any) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, help: v.help, targets: v.nodes.slice(0, 3).map((n: any) => n.target.join(' ')) })),
      passes: r.passes.length, incomplete: r.incomplete.length,
    };
  });
  return { page: name, ...result };
}

/** gzip size of a body (first-load budget). */
export function gzipBytes(body: Buffer): number {
  return gzipSync(body, { level: 9 }).length;
}

/** Retries `read` until the assertion holds (or the time is up: then its last failure). */
export function poll<T>(read: () => Promise<T> | T, options: { timeout?: number } = {}) {
  const run = async (check: (value: T) => void): Promise<void> => {
    const end = Date.now() + (options.timeout ?? 10_000);
    for (;;) {
      try {
        check(await read());
        return;
      } catch (err) {
        if (Date.now() > end) throw err;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  return {
    toBe: (expected: T) => run((value) => expect(value).toBe(expected)),
    toEqual: (expected: unknown) => run((value) => expect(value).toEqual(expected)),
    toMatch: (expected: RegExp) => run((value) => expect(value).toMatch(expected)),
  };
}

/** `describe`, or `describe.skip` saying why when the browser suites cannot run here (see browserMissing). */
export function describeBrowser(name: string, body: () => void): void {
  const missing = browserMissing();
  if (missing) describe.skip(`${name} ${skipMarker(missing)}`, body);
  else describe(name, body);
}

/** A 2×2 PNG (red/green/blue/white), built here: no fixture file. */
export function tinyPng(): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => { let c = n; for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1; return c >>> 0; });
  const crc = (buf: Buffer) => { let c = 0xffffffff; for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8); return (c ^ 0xffffffff) >>> 0; };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4); len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type), data]);
    const sum = Buffer.alloc(4); sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const ihdr = Buffer.alloc(13); ihdr.writeUInt32BE(2, 0); ihdr.writeUInt32BE(2, 4); ihdr[8] = 8; ihdr[9] = 2;
  const raw = Buffer.from([0, 255, 0, 0, 0, 255, 0, 0, 0, 0, 255, 255, 255, 255]);
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

/** The grid of a page and its cells (ids `cell-<row>-<col>`, rows in view only). */
export const gridOf = (p: Page) => p.getByRole('grid', { name: 'Records' });
export const cellOf = (p: Page, row: number, col: number) => p.locator(`#cell-${row}-${col}`);
export const rowCountOf = (p: Page) => p.locator('.grid-body [role="row"]').count();

export const PASSWORD = 'Web-Password-1';

/**
 * A browser suite on its own `npm start` process and chromium: the shared
 * set-up of the e2e/web files. Properties are set in beforeAll; at the end the
 * screenshots, the axe report and the browser console errors are printed.
 */
export class BrowserSuite {
  readonly server = new StandaloneServer();
  browser!: Browser;
  /** The main user's context and page (1280×800). */
  context!: BrowserContext;
  page!: Page;
  readonly axeReports: AxeSummary[] = [];
  readonly consoleErrors: string[] = [];

  constructor(options: { env?: NodeJS.ProcessEnv } = {}) {
    beforeAll(async () => {
      await this.server.start(options.env);
      this.browser = await launchChromium();
      this.context = await this.browser.newContext({ viewport: { width: 1280, height: 800 } });
      this.page = await this.newPage(this.context);
    }, 180_000);
    afterAll(async () => {
      await this.browser?.close();
      await this.server.stop();
      console.log(this.report());
    });
  }

  grid(p: Page = this.page) { return gridOf(p); }
  cell(row: number, col: number, p: Page = this.page) { return cellOf(p, row, col); }
  rowCount(p: Page = this.page) { return rowCountOf(p); }

  /** A page whose console errors are collected (and printed at the end). */
  async newPage(ctx: BrowserContext): Promise<Page> {
    const p = await ctx.newPage();
    p.setDefaultTimeout(10_000);
    p.on('console', (m) => { if (m.type() === 'error') this.consoleErrors.push(m.text()); });
    p.on('pageerror', (e) => this.consoleErrors.push(String(e)));
    return p;
  }

  /** Signs the main page in with a token (as the app keeps it), on the app's first page. */
  async signIn(token: string): Promise<void> {
    await this.page.goto(this.server.url);
    await this.page.evaluate((t) => (globalThis as any).localStorage.setItem('tabula-token', t), token);
  }

  /** A new browser context signed in with a token (as the app keeps it), on the app's first page. */
  async signedIn(token: string, options: Parameters<Browser['newContext']>[0] = { viewport: { width: 1280, height: 800 } }): Promise<{ context: BrowserContext; page: Page }> {
    const context = await this.browser.newContext(options);
    const page = await this.newPage(context);
    await page.goto(this.server.url);
    await page.evaluate((t) => (globalThis as any).localStorage.setItem('tabula-token', t), token);
    return { context, page };
  }

  /** Runs axe on a page: no critical or serious violation (the report is printed at the end). */
  async checkAxe(name: string, p: Page = this.page): Promise<void> {
    const report = await axe(p, name);
    this.axeReports.push(report);
    expect(report.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious')).toEqual([]);
  }

  /** Signs a user up through the API: its e-mail and session token. */
  async signUp(prefix: string): Promise<{ email: string; token: string }> {
    const email = `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const r = await this.server.call<{ token: string }>('POST', '/api/v1/auth/user/signup', undefined, { email, password: PASSWORD });
    expect(r.status).toBe(200);
    return { email, token: r.body.token };
  }

  /** Makes a user a member of a base with a role. */
  async addMember(ownerToken: string, baseId: string, email: string, roles: string): Promise<void> {
    expect((await this.server.call('POST', `/api/v1/db/meta/projects/${baseId}/users`, ownerToken, { email, roles })).status).toBe(200);
  }

  /** A base with one table, made through the API as the app makes them: their ids and the grid's URL. */
  async createTable(token: string, base: string, table: string, columns: Record<string, unknown>[]): Promise<{ baseId: string; tableId: string; gridUrl: string }> {
    const created = await this.server.call<{ id: string }>('POST', '/api/v1/db/meta/projects', token, { title: base });
    expect(created.status).toBe(200);
    const t = await this.server.call<{ id: string }>('POST', `/api/v1/db/meta/projects/${created.body.id}/tables`, token, {
      title: table, table_name: table, columns: columns.map((c) => ({ column_name: c.title, ...c })),
    });
    expect(t.status).toBe(200);
    return { baseId: created.body.id, tableId: t.body.id, gridUrl: `${this.server.url}/bases/${created.body.id}/tables/${t.body.id}` };
  }

  private report(): string {
    return [
      `screenshots (${SHOTS}):`, ...screenshots.map((s) => `  ${path.relative(SHOTS, path.join(root, s.file))} — ${s.description}`),
      'axe-core report (violations by impact; passes):',
      ...this.axeReports.map((r) => `  ${r.page}: ${r.violations.length ? r.violations.map((v) => `${v.impact} ${v.id} ×${v.nodes}`).join(', ') : 'no violations'}; ${r.passes} rules passed, ${r.incomplete} need review`),
      `browser console errors: ${this.consoleErrors.length ? this.consoleErrors.join(' | ') : 'none'}`,
    ].join('\n');
  }
}

/**
 * Screenshots of one suite in its own folder under test-results/web (emptied
 * at that suite's first screenshot), so suites run in one jest call never
 * wipe each other's.
 */
export function suiteScreenshots(folder: string) {
  const dir = path.join(SHOTS, folder);
  const taken: { file: string; description: string }[] = [];
  return {
    dir, taken,
    async take(page: Page, name: string, description: string): Promise<void> {
      if (taken.length === 0) rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      const file = path.join(dir, `${String(taken.length + 1).padStart(2, '0')}-${name}.png`);
      await page.screenshot({ path: file, fullPage: false });
      taken.push({ file: path.relative(root, file), description });
    },
  };
}

/** Signs in through the app's sign-in page. */
export async function signInPage(page: Page, url: string, email: string, password: string): Promise<void> {
  await page.goto(url);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Bases' }).waitFor();
}
