import path from 'node:path';
import os from 'node:os';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { createTestDatabase, entryArgs, freePort, waitHealthy, type TestDatabase } from '@tabula/testing';

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

  async start(): Promise<void> {
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
export async function screenshot(page: Page, name: string, description: string): Promise<void> {
  // A run's folder holds that run's screenshots only.
  if (shot === 0) rmSync(SHOTS, { recursive: true, force: true });
  mkdirSync(SHOTS, { recursive: true });
  shot += 1;
  const file = path.join(SHOTS, `${String(shot).padStart(2, '0')}-${name}.png`);
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
