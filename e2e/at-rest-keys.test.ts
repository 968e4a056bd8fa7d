import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { KeyRing, SecretBox, deriveSigningKey, startStandalone, type StandaloneHandle } from '@tabula/runtime';
import { TestApi, col, createTestDatabase, type TestDatabase } from '@tabula/testing';
import { createLogger } from '@tabula/telemetry';
import { allServices } from '../scripts/services';
import { verifyWebhook } from '../services/hooks/src/domain/hook-signature';
import { LinkSigner } from '../services/storage/src/domain/link-signer';
import { Sink } from './hooks-e2e.helpers';
import { rawGet, upload } from './storage-e2e.helpers';
import { openRaw, pgConnection, PURPOSES } from './at-rest-keys.helpers';

/**
 * What is sealed or signed at rest (source credentials, hook secrets,
 * integration configs, attachment links) uses SVC_ENCRYPTION_KEYS, not
 * SVC_INTERNAL_SECRET: a restart with another internal secret, same DATA_DIR
 * (standalone keeps the generated ring key there), reads everything back;
 * values the former code sealed with keys derived from the internal secret are
 * re-sealed at start-up; a new ring key put first still opens the old values.
 */
const INTERNAL = ['internal-secret-one-0123456789abcdef0123456789', 'internal-secret-two-0123456789abcdef0123456789', 'internal-secret-three-0123456789abcdef012345'];
const NEW_RING_KEY = randomBytes(32).toString('base64url');
const FILE = Buffer.from('attachment bytes that must stay downloadable');

let database: TestDatabase;
let external: TestDatabase;
let db: Knex;
let dataDir: string;
let handle: StandaloneHandle | undefined;
const sink = new Sink();
const state = {} as {
  token: string; extBaseId: string; integrationId: string; integrationConfig: unknown;
  items: { baseId: string; id: string }; hookSecret: string; signedPath: string; objectKey: string;
};

async function start(internalSecret: string, env: Record<string, string> = {}): Promise<string> {
  await handle?.stop();
  handle = await startStandalone({
    definitions: allServices, logger: createLogger('standalone', 'silent'),
    env: {
      ...process.env, TABULA_MODE: 'standalone', DATABASE_URL: database.url, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1',
      EVENT_BUS: 'memory', LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent', OTEL_SDK_DISABLED: 'true', SVC_INTERNAL_SECRET: internalSecret,
      SVC_ALLOW_LOCAL_SOURCES: 'true', SVC_ALLOW_LOCAL_HOOKS: 'true', SVC_HOOKS_POLL_MS: '50', ...env,
    },
  });
  return handle.url;
}

const api = (url: string) => new TestApi(url);
const call = async (url: string, method: string, p: string, body?: unknown) => api(url).call(method, p, { token: state.token, body });

/** Every stored credential reads back through the API, the hook signs with its secret, the signed link downloads. */
async function expectEverythingReadable(url: string, label: string): Promise<void> {
  const people = await call(url, 'GET', `/api/v1/db/data/noco/${state.extBaseId}/people`);
  expect({ label, status: people.status, names: (people.body.list ?? []).map((r: { name: string }) => r.name) }).toEqual({ label, status: 200, names: ['Ada'] });
  const integration = await call(url, 'GET', `/api/v2/meta/integrations/${state.integrationId}?includeConfig=true`);
  expect({ label, config: integration.body.config }).toEqual({ label, config: state.integrationConfig });
  const before = sink.at('/hook').length;
  expect((await call(url, 'POST', `/api/v1/db/data/noco/${state.items.baseId}/Items`, { Name: label })).status).toBe(200);
  const [delivered] = (await sink.waitFor('/hook', before + 1)).slice(before);
  expect({ label, signed: verifyWebhook(state.hookSecret, delivered.headers, delivered.body) }).toEqual({ label, signed: true });
  const link = await rawGet(url, `/${state.signedPath}`);
  expect({ label, status: link.status, same: link.body.equals(FILE) }).toEqual({ label, status: 200, same: true });
}

beforeAll(async () => {
  await sink.start();
  database = await createTestDatabase();
  external = await createTestDatabase('tabula_atrest');
  const k = knexFactory({ client: 'pg', connection: external.url });
  await k.schema.createTable('people', (t) => { t.increments('id'); t.string('name').notNullable(); });
  await k('people').insert({ name: 'Ada' });
  await k.destroy();
  db = knexFactory({ client: 'pg', connection: database.url, pool: { min: 0, max: 2 } });
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'tabula-at-rest-'));
}, 60_000);
afterAll(async () => {
  await handle?.stop();
  await db?.destroy();
  await database?.drop();
  await external?.drop();
  await sink.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('at-rest keys independent of SVC_INTERNAL_SECRET', () => {
  it('stores a source, an integration, a hook and an attachment (standalone, generated ring key)', async () => {
    const url = await start(INTERNAL[0]);
    state.token = (await api(url).signUp('keys', 'keys-owner@example.com')).token;
    const ext = await call(url, 'POST', '/api/v1/db/meta/projects', {
      title: 'Ext', external: true, sources: [{ type: 'pg', config: { client: 'pg', connection: pgConnection(external.url) } }],
    });
    expect(ext.status).toBe(200);
    state.extBaseId = ext.body.id;
    const integration = await call(url, 'POST', '/api/v2/meta/integrations', { title: 'AI', type: 'ai', sub_type: 'openai', config: { apiKey: 'sk-at-rest-1' } });
    expect(integration.status).toBe(200);
    state.integrationId = integration.body.id;
    state.integrationConfig = (await call(url, 'GET', `/api/v2/meta/integrations/${state.integrationId}?includeConfig=true`)).body.config;
    expect(state.integrationConfig).toMatchObject({ apiKey: 'sk-at-rest-1' });
    const table = await api(url).baseWithTable({ token: state.token }, { title: 'Items', table_name: 'items', columns: [col.id(), col.text('Name')] });
    state.items = { baseId: table.baseId, id: table.id };
    const hook = await call(url, 'POST', `/api/v1/db/meta/tables/${table.id}/hooks`, {
      title: 'signed', event: 'after', operation: 'insert', version: 'v2', notification: { type: 'URL', payload: { method: 'POST', path: `${sink.url}/hook` } },
    });
    expect(hook.status).toBe(200);
    state.hookSecret = hook.body.secret;
    const uploaded = await upload(url, state.token, [{ name: 'kept.txt', type: 'text/plain', data: FILE }]);
    expect(uploaded.status).toBe(200);
    state.signedPath = uploaded.body[0].signedPath;
    state.objectKey = uploaded.body[0].path.replace(/^download\//, '');
    await expectEverythingReadable(url, 'first start');
  }, 120_000);

  it('re-seals what the former code sealed with keys derived from the internal secret, at the next start', async () => {
    await handle?.stop();
    handle = undefined;
    // What the former code stored with SVC_INTERNAL_SECRET = INTERNAL[0] and no per-service key.
    const open = (purpose: string, sealed: string) => openRaw(readFileSync(path.join(dataDir, 'encryption-key'), 'utf8'), purpose, sealed);
    const source = await db('meta.sources').whereNotNull('config').first();
    await db('meta.sources').where({ id: source.id }).update({ config: new SecretBox(PURPOSES.meta, INTERNAL[0]).seal(open(PURPOSES.meta, source.config)) });
    const hook = await db('hooks.hooks').first();
    await db('hooks.hooks').where({ id: hook.id }).update({ secret_sealed: new SecretBox(PURPOSES.hooks, INTERNAL[0]).seal(open(PURPOSES.hooks, hook.secret_sealed)) });
    const integration = await db('integrations.integrations').first();
    await db('integrations.integrations').where({ id: integration.id })
      .update({ config_sealed: new KeyRing(PURPOSES.integrations, [INTERNAL[0]]).seal(open(PURPOSES.integrations, integration.config_sealed)) });
    // a link the former code signed minutes ago keeps working until it expires
    const formerLink = new LinkSigner(deriveSigningKey(PURPOSES.links, INTERNAL[0]), 600).sign(state.objectKey);

    const url = await start(INTERNAL[0]);
    expect((await rawGet(url, `/dltemp/${formerLink}`)).status).toBe(200);
    // re-sealed under the ring key (kept in DATA_DIR): they open with it alone
    expect(open(PURPOSES.meta, (await db('meta.sources').where({ id: source.id }).first()).config)).toMatchObject({ connection: pgConnection(external.url) });
    expect(open(PURPOSES.hooks, (await db('hooks.hooks').where({ id: hook.id }).first()).secret_sealed)).toBe(state.hookSecret);
    expect(open(PURPOSES.integrations, (await db('integrations.integrations').where({ id: integration.id }).first()).config_sealed)).toEqual(state.integrationConfig);
    await expectEverythingReadable(url, 'after the re-seal');
  }, 120_000);

  it('a restart with another SVC_INTERNAL_SECRET (same DATA_DIR) reads every stored credential and keeps signed links valid', async () => {
    const url = await start(INTERNAL[1]);
    await expectEverythingReadable(url, 'new internal secret');
  }, 120_000);

  it('a new key put first in SVC_ENCRYPTION_KEYS still opens the old values; the stored rows then open with it and node:crypto alone', async () => {
    const generated = readFileSync(path.join(dataDir, 'encryption-key'), 'utf8');
    const url = await start(INTERNAL[2], { SVC_ENCRYPTION_KEYS: `${NEW_RING_KEY},${generated}` });
    await expectEverythingReadable(url, 'rotated ring');
    const source = await db('meta.sources').whereNotNull('config').first();
    expect(openRaw(NEW_RING_KEY, PURPOSES.meta, source.config)).toMatchObject({ connection: pgConnection(external.url) });
    expect(openRaw(NEW_RING_KEY, PURPOSES.hooks, (await db('hooks.hooks').first()).secret_sealed)).toBe(state.hookSecret);
    expect(openRaw(NEW_RING_KEY, PURPOSES.integrations, (await db('integrations.integrations').first()).config_sealed)).toEqual(state.integrationConfig);
    expect(() => openRaw(generated, PURPOSES.meta, source.config)).toThrow();
  }, 120_000);
});
