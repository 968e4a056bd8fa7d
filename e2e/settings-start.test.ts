import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { entryArgs } from '@tabula/testing';

const root = path.resolve(__dirname, '..');

/** Runs an entry point with the given settings; resolves with its exit code and output. */
function run(entry: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  const started = Date.now();
  const child = spawn(process.execPath, entryArgs(entry), {
    cwd: root, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', OTEL_SDK_DISABLED: 'true', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => { stdout += c; });
  child.stderr.on('data', (c) => { stderr += c; });
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr, ms: Date.now() - started })));
}

/** Settings wrong in every way the issue names, across platform and service settings. */
const BAD = {
  LOG_LEVEL: 'loud', SVC_JWT_EXPIRES_IN: 'forever', SVC_BULK_MAX_RECORDS: 'lots', SVC_HOOKS_POLL_MS: '1', SVC_AUTH_CACHE_TTL_MS: 'x', PORT: '99999',
};

describe('settings are validated at start, every problem in one message', () => {
  let dataDir: string;
  beforeEach(() => { dataDir = mkdtempSync(path.join(os.tmpdir(), 'tabula-settings-')); });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('standalone (npm start): exits 1 before PostgreSQL starts, listing platform and service problems', async () => {
    const result = await run('scripts/start-standalone.ts', { ...BAD, DATA_DIR: dataDir });
    console.log(`npm start with bad settings: exit ${result.code} after ${result.ms} ms\n${result.stderr}`);
    expect(result.code).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines[0]).toBe('Invalid configuration:');
    expect(lines.slice(1).map((l) => l.trim().replace(/^- /, '').split(':')[0]).sort()).toEqual(
      ['LOG_LEVEL', 'PORT', 'SVC_AUTH_CACHE_TTL_MS', 'SVC_BULK_MAX_RECORDS', 'SVC_HOOKS_POLL_MS', 'SVC_JWT_EXPIRES_IN'],
    );
    expect(result.stderr).toContain('LOG_LEVEL: must be one of trace, debug, info, warn, error, fatal, silent; got "loud"');
    expect(result.stderr).not.toMatch(/unknown level|at .*node_modules/);
    expect(existsSync(path.join(dataDir, 'postgres'))).toBe(false);
  }, 60_000);

  it('cluster launcher (npm run start:cluster): one message for every service, no process started', async () => {
    const result = await run('scripts/start-cluster.ts', {
      ...BAD, DATA_DIR: dataDir, DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/none', REDIS_URL: 'redis://127.0.0.1:6379',
    });
    expect(result.code).toBe(1);
    expect(result.stdout).not.toContain('[cluster]');
    const lines = result.stderr.trim().split('\n');
    expect(lines[0]).toBe('start:cluster: invalid configuration:');
    expect(lines.slice(1).map((l) => l.trim().replace(/^- /, '').split(':')[0]).sort()).toEqual(
      ['LOG_LEVEL', 'PORT', 'SVC_AUTH_CACHE_TTL_MS', 'SVC_BULK_MAX_RECORDS', 'SVC_HOOKS_POLL_MS', 'SVC_JWT_EXPIRES_IN'],
    );
  }, 60_000);

  it('cluster service process: one fatal line with every problem, exit 1', async () => {
    const result = await run('services/auth/src/main.ts', {
      TABULA_MODE: 'cluster', EVENT_BUS: 'redis', LOG_LEVEL: 'loud', SVC_JWT_EXPIRES_IN: 'forever', SVC_AUTH_MAX_FAILURES_PER_IP: '0',
    });
    expect(result.code).toBe(1);
    const fatal = result.stdout.trim().split('\n').map((l) => JSON.parse(l) as { level: string; problems?: string[] }).find((l) => l.level === 'fatal');
    expect(fatal?.problems?.map((p) => p.split(':')[0]).sort()).toEqual(
      ['DATABASE_URL', 'LOG_LEVEL', 'REDIS_URL', 'SVC_AUTH_MAX_FAILURES_PER_IP', 'SVC_ENCRYPTION_KEYS', 'SVC_INTERNAL_SECRET', 'SVC_JWT_EXPIRES_IN', 'SVC_JWT_SECRET'],
    );
  }, 60_000);
});
