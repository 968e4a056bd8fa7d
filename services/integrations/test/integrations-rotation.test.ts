import { execFile } from 'node:child_process';
import { createDecipheriv, createHash, hkdfSync } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import knexFactory from 'knex';
import { createTestDatabase, type TestDatabase } from '@tabula/testing';
import { AtRestRing, KeyRing } from '@tabula/runtime';
import { INTEGRATION_SECRETS_PURPOSE } from '../src/service';
import { INTERNAL, startIntegrationsHarness, users } from './integrations-app.harness';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../../..');
/** The former SVC_INTEGRATIONS_ENCRYPTION_KEY (before SVC_ENCRYPTION_KEYS). */
const FORMER = 'old-integrations-key-material-0001';
const A = 'ring-key-a-for-the-integrations-rotation-0001';
const B = 'ring-key-b-for-the-integrations-rotation-0002';
const M = '/api/v2/meta/integrations';
let database: TestDatabase;

/** Runs `npm run integrations:rotate-keys` (the real command) against the test database. */
async function rotate(keys: string): Promise<Record<string, unknown>> {
  const { stdout } = await run('npm', ['run', '--silent', 'integrations:rotate-keys'], {
    cwd: ROOT, timeout: 120_000,
    env: { ...process.env, DATABASE_URL: database.url, SVC_INTERNAL_SECRET: INTERNAL, SVC_ENCRYPTION_KEYS: keys, LOG_LEVEL: 'silent' },
  });
  return JSON.parse(stdout.trim().split('\n').pop()!) as Record<string, unknown>;
}

async function harness(env: Record<string, string>) {
  return startIntegrationsHarness({ database, env });
}

/** The stored rows, read straight from PostgreSQL (no service started, so nothing re-sealed meanwhile). */
async function sealedRows(): Promise<{ id: string; config_sealed: string }[]> {
  const db = knexFactory({ client: 'pg', connection: database.url, pool: { min: 0, max: 1 } });
  try {
    return await db.withSchema('integrations').table('integrations').select('id', 'config_sealed').orderBy('id');
  } finally {
    await db.destroy();
  }
}

async function expectConfigs(env: Record<string, string>, configs: Map<string, unknown>): Promise<void> {
  const h = await harness(env);
  try {
    for (const [id, config] of configs) {
      expect((await h.http.get(`${M}/${id}?includeConfig=true`).set(h.as(users.owner)).expect(200)).body.config).toEqual(config);
    }
  } finally {
    await h.stop({ keepDatabase: true });
  }
}

const idOf = (key: string) => new AtRestRing(INTEGRATION_SECRETS_PURPOSE, [key]).primaryId;

beforeAll(async () => { database = await createTestDatabase(); });
afterAll(async () => { await database.drop(); });

describe('integration configs at rest (SVC_ENCRYPTION_KEYS)', () => {
  const configs = new Map<string, unknown>();

  it('configs sealed before the ring (former setting, internal secret) are re-sealed at start-up and survive a new internal secret', async () => {
    const h = await harness({ SVC_ENCRYPTION_KEYS: A });
    const bodies = [
      { title: 'pg', type: 'database', sub_type: 'pg', config: { connection: { host: 'h', user: 'u', password: 'pw-1', database: 'd' } } },
      { title: 'ai', type: 'ai', sub_type: 'openai', config: { apiKey: 'sk-rot-2' } },
      { title: 'priv', type: 'database', sub_type: 'mysql2', config: { connection: { host: 'm', user: 'u', password: 'pw-3', database: 'd' } }, is_private: true },
    ];
    for (const body of bodies) {
      const { id } = (await h.http.post(M).set(h.as(users.owner)).send(body).expect(200)).body;
      configs.set(id, (await h.http.get(`${M}/${id}?includeConfig=true`).set(h.as(users.owner)).expect(200)).body.config);
    }
    // What the former code stored: v2 with SVC_INTEGRATIONS_ENCRYPTION_KEY, or (unset) with the internal secret.
    const table = () => h.shared.db.withSchema('integrations').table('integrations');
    const rows = (await table().select('id', 'config_sealed').orderBy('id')) as { id: string; config_sealed: string }[];
    for (const [i, row] of rows.entries()) {
      const former = new KeyRing(INTEGRATION_SECRETS_PURPOSE, [i === 0 ? INTERNAL : FORMER]);
      await table().where({ id: row.id }).update({ config_sealed: former.seal(new AtRestRing(INTEGRATION_SECRETS_PURPOSE, [A]).open(row.config_sealed)) });
    }
    await h.stop({ keepDatabase: true });

    await expectConfigs({ SVC_ENCRYPTION_KEYS: A, SVC_INTEGRATIONS_ENCRYPTION_KEY: FORMER }, configs);
    const after = await sealedRows();
    expect(after.map((r) => r.config_sealed.slice(0, 12))).toEqual(after.map(() => `v3.${idOf(A)}.`));
    await expectConfigs({ SVC_ENCRYPTION_KEYS: A, SVC_INTERNAL_SECRET: 'a-different-internal-secret-0123456789abcdef' }, configs);
  });

  it('a stored row opens with the configured key and node:crypto alone (docs/encryption-at-rest.md)', async () => {
    const [row] = await sealedRows();
    const [version, keyId, iv, tag, data] = row.config_sealed.split('.');
    const key = Buffer.from(hkdfSync('sha256', Buffer.from(A), Buffer.from('tabula-at-rest'), Buffer.from('tabula-integrations'), 32));
    expect([version, keyId]).toEqual(['v3', createHash('sha256').update(key).digest('base64url').slice(0, 8)]);
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    const plain = JSON.parse(Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8'));
    expect(plain).toEqual(configs.get(row.id));
  });

  it('a new ring key put first still opens the old values; start-up and the command re-seal them with it', async () => {
    await expectConfigs({ SVC_ENCRYPTION_KEYS: `${B},${A}` }, configs);
    expect((await sealedRows()).every((r) => r.config_sealed.startsWith(`v3.${idOf(B)}.`))).toBe(true);
    expect(await rotate(`${B},${A}`)).toEqual({ keyId: idOf(B), resealed: 0, unreadable: [] });
    await expectConfigs({ SVC_ENCRYPTION_KEYS: B }, configs);
  });

  it('the command re-seals what start-up did not, and refuses (nothing lost) when no key opens a row', async () => {
    const h = await harness({ SVC_ENCRYPTION_KEYS: B });
    const [first] = [...configs.keys()];
    await h.shared.db.withSchema('integrations').table('integrations').where({ id: first })
      .update({ config_sealed: new AtRestRing(INTEGRATION_SECRETS_PURPOSE, [A]).seal(configs.get(first)) });
    await h.stop({ keepDatabase: true });
    await expect(rotate('a-third-key-nobody-used-0000000000003')).rejects.toThrow(/no key opens them/);
    expect(await rotate(`${B},${A}`)).toEqual({ keyId: idOf(B), resealed: 1, unreadable: [] });
    await expectConfigs({ SVC_ENCRYPTION_KEYS: B }, configs);
  });
});
