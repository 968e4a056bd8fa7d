import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { createTestDatabase, type TestDatabase } from '@tabula/testing';
import { KeyRing } from '@tabula/runtime';
import { INTEGRATION_SECRETS_PURPOSE } from '../src/service';
import { INTERNAL, startIntegrationsHarness, users } from './integrations-app.harness';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../../..');
const OLD = 'old-integrations-key-material-0001';
const NEW = 'new-integrations-key-material-0002';
const M = '/api/v2/meta/integrations';
let database: TestDatabase;

/** Runs `npm run integrations:rotate-keys` (the real command) against the test database. */
async function rotate(keys: string): Promise<Record<string, number | string>> {
  const { stdout } = await run('npm', ['run', '--silent', 'integrations:rotate-keys'], {
    cwd: ROOT, timeout: 120_000,
    env: { ...process.env, DATABASE_URL: database.url, SVC_INTERNAL_SECRET: INTERNAL, SVC_INTEGRATIONS_ENCRYPTION_KEY: keys, LOG_LEVEL: 'silent' },
  });
  return JSON.parse(stdout.trim().split('\n').pop()!) as Record<string, number | string>;
}

async function sealedRows(): Promise<{ id: string; config_sealed: string }[]> {
  const h = await startIntegrationsHarness({ database, env: { SVC_INTEGRATIONS_ENCRYPTION_KEY: NEW } });
  const rows = await h.shared.db.withSchema('integrations').table('integrations').select('id', 'config_sealed').orderBy('id');
  await h.stop({ keepDatabase: true });
  return rows;
}

beforeAll(async () => { database = await createTestDatabase(); });
afterAll(async () => { await database.drop(); });

describe('key rotation', () => {
  const configs = new Map<string, unknown>();

  it('rows sealed with the old key keep opening while both keys are configured', async () => {
    const h = await startIntegrationsHarness({ database, env: { SVC_INTEGRATIONS_ENCRYPTION_KEY: OLD } });
    const bodies = [
      { title: 'pg', type: 'database', sub_type: 'pg', config: { connection: { host: 'h', user: 'u', password: 'pw-1', database: 'd' } } },
      { title: 'ai', type: 'ai', sub_type: 'openai', config: { apiKey: 'sk-rot-2' } },
      { title: 'priv', type: 'database', sub_type: 'mysql2', config: { connection: { host: 'm', user: 'u', password: 'pw-3', database: 'd' } }, is_private: true },
    ];
    for (const body of bodies) {
      const { id } = (await h.http.post(M).set(h.as(users.owner)).send(body).expect(200)).body;
      configs.set(id, (await h.http.get(`${M}/${id}?includeConfig=true`).set(h.as(users.owner)).expect(200)).body.config);
    }
    await h.stop({ keepDatabase: true });
    const both = await startIntegrationsHarness({ database, env: { SVC_INTEGRATIONS_ENCRYPTION_KEY: `${NEW},${OLD}` } });
    for (const [id, config] of configs) {
      expect((await both.http.get(`${M}/${id}?includeConfig=true`).set(both.as(users.owner)).expect(200)).body.config).toEqual(config);
    }
    await both.stop({ keepDatabase: true });
  });

  it('the rotation command re-seals every config with the first key; the old key can then go', async () => {
    const before = await sealedRows();
    for (const row of before) expect(() => new KeyRing(INTEGRATION_SECRETS_PURPOSE, [NEW]).open(row.config_sealed)).toThrow(/no key of the ring/);
    const first = await rotate(`${NEW},${OLD}`);
    expect(first).toMatchObject({ scanned: 3, resealed: 3, current: 0, keyId: new KeyRing(INTEGRATION_SECRETS_PURPOSE, [NEW]).primaryId });
    expect(await rotate(`${NEW},${OLD}`)).toMatchObject({ scanned: 3, resealed: 0, current: 3 });
    const after = await sealedRows();
    for (const row of after) {
      expect(row.config_sealed.split('.')[1]).toBe(new KeyRing(INTEGRATION_SECRETS_PURPOSE, [NEW]).primaryId);
      expect(() => new KeyRing(INTEGRATION_SECRETS_PURPOSE, [OLD]).open(row.config_sealed)).toThrow();
    }
    const onlyNew = await startIntegrationsHarness({ database, env: { SVC_INTEGRATIONS_ENCRYPTION_KEY: NEW } });
    for (const [id, config] of configs) {
      expect((await onlyNew.http.get(`${M}/${id}?includeConfig=true`).set(onlyNew.as(users.owner)).expect(200)).body.config).toEqual(config);
    }
    await onlyNew.stop({ keepDatabase: true });
  });

  it('refuses to run when a row opens with no key of the ring (nothing lost)', async () => {
    await expect(rotate('a-third-key-nobody-used-0000000003')).rejects.toThrow(/keep its key/);
    const rows = await sealedRows();
    expect(rows.every((r) => r.config_sealed.split('.')[1] === new KeyRing(INTEGRATION_SECRETS_PURPOSE, [NEW]).primaryId)).toBe(true);
  });
});
