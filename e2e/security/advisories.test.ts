import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import knex, { type Knex } from 'knex';
import { rawGet, upload } from '../storage-e2e.helpers';
import { rawRequest, startSecurityStack, type Reply, type SecurityStack, type TestUser } from './security.helpers';

/**
 * Advisory catalogue (issue 17, permanent suite): NocoDB's published security
 * advisories replayed against Tabula, one test per advisory, named with its
 * id where we are sure of it, else with its title and "(NocoDB advisory, id
 * not verified)". Each test attacks Tabula's corresponding surface and
 * asserts the safe outcome.
 */
const UNVERIFIED = '(NocoDB advisory, id not verified)';
const SECRET = `adv-${randomBytes(6).toString('hex')}`;

let s: SecurityStack;
let db: Knex;
let owner: TestUser;
let baseId: string;
let tableId: string;
/** A file outside the storage directory that no traversal may read. */
let outsideFile: string;
/** Counts requests that reach the test's own HTTP server (SSRF canary). */
let canaryHits = 0;
let canary: http.Server;
let canaryUrl: string;

/** Whether any injected SQL ever called public.sqli_probe() (see beforeAll). */
const probeCalled = async (): Promise<boolean> => (await db.raw('SELECT is_called FROM public.sqli_probe_calls')).rows[0].is_called === true;
const signIn = (email: string, password: string) => s.call('POST', '/api/v1/auth/user/signin', { body: { email, password } });
const refreshOf = (res: Reply) => (res.headers.getSetCookie?.() ?? []).find((c) => c.startsWith('refresh_token='))?.split(';')[0].slice('refresh_token='.length);
const refresh = (token: string) => s.call('POST', '/api/v1/auth/token/refresh', { headers: { cookie: `refresh_token=${token}` } });

/** The reset token of the newest mail to `to` (the mail outbox is the standalone's mailer). */
async function resetToken(to: string): Promise<string> {
  for (let i = 0; i < 100; i += 1) {
    const mail = await db.withSchema('auth').table('mail_outbox').where({ to }).orderBy('id', 'desc').first();
    const match = /Reset token: (\S+)/.exec(mail?.body ?? '');
    if (match) return match[1];
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no reset mail for ${to}`);
}

beforeAll(async () => {
  canary = http.createServer((req, res) => { canaryHits += 1; req.resume(); res.end(`canary ${SECRET}`); });
  await new Promise<void>((r) => canary.listen(0, '127.0.0.1', r));
  canaryUrl = `http://127.0.0.1:${(canary.address() as AddressInfo).port}`;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tabula-adv-'));
  outsideFile = path.join(dir, 'secret.txt');
  writeFileSync(outsideFile, `outside ${SECRET}`);
  s = await startSecurityStack();
  db = knex({ client: 'pg', connection: s.stack.database.url, pool: { min: 0, max: 2 } });
  // The injection probe: a function that counts its calls in a sequence. A payload that became SQL calls it (a
  // sequence is not rolled back with a failed statement); a payload that stayed data never does. This replaces
  // pg_sleep timing (a blind-injection oracle that depended on machine speed).
  await db.raw('CREATE SEQUENCE public.sqli_probe_calls');
  await db.raw("CREATE FUNCTION public.sqli_probe() RETURNS text LANGUAGE sql VOLATILE AS $$ SELECT nextval('public.sqli_probe_calls')::text $$");
  owner = await s.signUp('adv-owner');
  baseId = await s.createBase(owner, `Adv ${SECRET}`);
  tableId = await s.createTable(owner, baseId, 'Items');
  expect((await s.call('POST', `/api/v1/db/data/noco/${baseId}/${tableId}`, { token: owner.token, body: { Name: SECRET } })).status).toBe(200);
}, 120_000);
afterAll(async () => {
  await db?.destroy();
  await s?.stop();
  await new Promise((r) => canary?.close(r));
});

describe('NocoDB advisories replayed against Tabula', () => {
  it('CVE-2023-35843: path traversal in /download reads no file outside storage (unauthenticated)', async () => {
    const rel = path.relative('/', outsideFile);
    const attempts = [
      `/download/../../../../../../../../${rel}`,
      `/download/..%2f..%2f..%2f..%2f..%2f..%2f..%2f..%2f${rel.replace(/\//g, '%2f')}`,
      `/download/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/${rel}`,
      `/download/%252e%252e%252f%252e%252e%252f%252e%252e%252f${rel}`,
      '/download/....//....//....//....//etc/passwd',
      '/download/..\\..\\..\\..\\..\\..\\etc\\passwd',
      `/download/${encodeURIComponent(outsideFile)}`,
      '/download/noco/%00/../../../etc/passwd',
      '/dltemp/..%2f..%2f..%2fetc%2fpasswd',
      '/download/../../../../../../etc/passwd',
    ];
    for (const attempt of attempts) {
      for (const token of [undefined, owner.token]) {
        const res = await rawGet(s.url, attempt, token ? { 'xc-auth': token } : {});
        const text = res.body.toString('utf8');
        expect({ attempt, status: res.status, leaked: text.includes(SECRET) || /root:.*:0:0:/.test(text) }).toEqual({ attempt, status: expect.any(Number), leaked: false });
        expect([attempt, [400, 401, 403, 404].includes(res.status)]).toEqual([attempt, true]);
      }
    }
    // Upload folders cannot climb out of storage either.
    for (const q of ['../../../../tmp/evil', '%2e%2e/%2e%2e/x', '/etc', 'noco/../../x']) {
      const up = await upload(s.url, owner.token, [{ name: '../../evil.txt', type: 'text/plain', data: Buffer.from('e') }], `?path=${q}`);
      expect({ q, status: up.status }).toEqual({ q, status: 400 });
    }
    // Nor can a record cell name a file outside what was uploaded.
    const files = await s.call('POST', `/api/v1/db/meta/tables/${tableId}/columns`, { token: owner.token, body: { title: 'Files', uidt: 'Attachment' } });
    expect(files.status).toBe(200);
    for (const cell of [{ path: `../../../${rel}` }, { path: 'download/x/../../../etc/passwd' }, { url: `file://${outsideFile}` }, { url: 'javascript:alert(1)' }]) {
      const res = await s.call('POST', `/api/v1/db/data/noco/${baseId}/${tableId}`, { token: owner.token, body: { Name: 'cell', Files: [{ title: 'x', ...cell }] } });
      expect({ cell, status: res.status }).toEqual({ cell, status: 400 });
    }
    expect((await s.call('DELETE', `/api/v1/db/meta/columns/${files.body.id}`, { token: owner.token })).status).toBe(200);
    // A record cell pointing outside storage is not a download key either.
    const cell = await s.call('GET', `/api/v2/downloadAttachment/${tableId}/x/1?urlOrPath=${encodeURIComponent(`../../../${rel}`)}`, { token: owner.token });
    expect([400, 404]).toContain(cell.status);
    expect(JSON.stringify(cell.body)).not.toContain(SECRET);
  });

  it('CVE-2023-43794: blind SQL injection through query parameters (where, sort, fields, limit) stays data, never SQL', async () => {
    const list = (query: string) => s.call('GET', `/api/v1/db/data/noco/${baseId}/${tableId}${query}`, { token: owner.token });
    const payloads = [
      `?where=${encodeURIComponent("(Name,eq,x') OR 1=1 --)")}`,
      `?where=${encodeURIComponent("(Name,eq,x'||public.sqli_probe()||')")}`,
      `?where=${encodeURIComponent('(Name,eq,x);SELECT public.sqli_probe();--')}`,
      `?where=${encodeURIComponent('(Name);SELECT public.sqli_probe()--,eq,x)')}`,
      `?sort=${encodeURIComponent('-Name;SELECT public.sqli_probe()')}`,
      `?sort=${encodeURIComponent('(CASE WHEN 1=1 THEN public.sqli_probe() END)')}`,
      `?fields=${encodeURIComponent('Name,(SELECT public.sqli_probe())')}`,
      `?limit=${encodeURIComponent('1;SELECT public.sqli_probe()')}`,
      `?offset=${encodeURIComponent('0 UNION SELECT usename FROM pg_user')}`,
    ];
    for (const payload of payloads) {
      const res = await list(payload);
      expect({ payload, probed: await probeCalled(), fiveHundred: res.status >= 500 }).toEqual({ payload, probed: false, fiveHundred: false });
      // Either refused (4xx) or the payload was a literal value that matches nothing.
      if (res.status === 200) expect([payload, res.body.list.some((r: { Name: string }) => r.Name !== SECRET)]).toEqual([payload, false]);
      if (res.status === 200 && payload.startsWith('?where')) expect([payload, res.body.list]).toEqual([payload, []]);
    }
    // The probe can fail: called as SQL, it is seen (then reset for the next test).
    await db.raw('SELECT public.sqli_probe()');
    expect(await probeCalled()).toBe(true);
    await db.raw("SELECT setval('public.sqli_probe_calls', 1, false)");
    const users = await s.call('GET', `/api/v1/db/data/noco/${baseId}/${tableId}?where=${encodeURIComponent("(Name,eq,' UNION SELECT email FROM auth.users --)")}`, { token: owner.token });
    expect(JSON.stringify(users.body)).not.toContain('@example.com');
  });

  it(`SQL injection through table and column names ${UNVERIFIED}: identifiers with SQL stay literal`, async () => {
    const evilTable = `x"; DROP TABLE users; --`;
    const evilColumn = `c'); DELETE FROM users; --`;
    // Physical names are whitelisted identifiers: SQL in them is refused, never quoted into DDL.
    const physical = await s.call('POST', `/api/v1/db/meta/projects/${baseId}/tables`, {
      token: owner.token, body: { title: 'Evil', table_name: evilTable, columns: [{ title: 'Id', column_name: 'id', uidt: 'ID', pk: true, ai: true }] },
    });
    expect([physical.status, physical.body.error]).toEqual([400, 'ERR_INVALID_REQUEST_BODY']);
    const physicalColumn = await s.call('POST', `/api/v1/db/meta/tables/${tableId}/columns`, { token: owner.token, body: { title: 'Evil', column_name: evilColumn, uidt: 'SingleLineText' } });
    expect([physicalColumn.status, physicalColumn.body.error]).toEqual([400, 'ERR_INVALID_REQUEST_BODY']);
    // Titles are free text: SQL in them is stored and used literally (as keys, in where and sort).
    const table = await s.call('POST', `/api/v1/db/meta/projects/${baseId}/tables`, {
      token: owner.token,
      body: { title: evilTable, columns: [{ title: 'Id', column_name: 'id', uidt: 'ID', pk: true, ai: true }, { title: evilColumn, uidt: 'SingleLineText' }] },
    });
    expect([table.status, table.body?.message]).toEqual([200, undefined]);
    expect(table.body.title).toBe(evilTable);
    const row = await s.call('POST', `/api/v1/db/data/noco/${baseId}/${table.body.id}`, { token: owner.token, body: { [evilColumn]: "'; SELECT 1; --" } });
    expect(row.status).toBe(200);
    expect(row.body[evilColumn]).toBe("'; SELECT 1; --");
    const byTitle = await s.call('GET', `/api/v1/db/data/noco/${baseId}/${encodeURIComponent(evilTable)}?sort=-${encodeURIComponent(evilColumn)}&where=${encodeURIComponent(`(${evilColumn},eq,'; SELECT 1; --)`)}`, { token: owner.token });
    expect([byTitle.status, byTitle.body.list?.length]).toEqual([200, 1]);
    const renamed = await s.call('PATCH', `/api/v1/db/meta/tables/${tableId}`, { token: owner.token, body: { title: "Items'); DROP SCHEMA auth CASCADE; --" } });
    expect(renamed.status).toBeLessThan(500);
    expect(Number((await db.withSchema('auth').table('users').count<{ count: string }[]>('* as count'))[0].count)).toBeGreaterThan(0);
    // The system columns of every dialect are refused as names (issue 17 defect 9 is the deeper test).
    const system = await s.call('POST', `/api/v1/db/meta/tables/${tableId}/columns`, { token: owner.token, body: { title: 'ctid', column_name: 'ctid', uidt: 'SingleLineText' } });
    expect(system.status).toBe(400);
  });

  it(`SQL injection through formula columns ${UNVERIFIED}: formulas are parsed, never spliced into SQL`, async () => {
    const accepted: string[] = [];
    const formulas = [
      "CONCAT({Name}, '); DROP TABLE auth.users; --')",
      'SQLI_PROBE()',
      '{Name}); SELECT public.sqli_probe(); --',
      "CONCAT({Name}, (SELECT string_agg(email, ',') FROM auth.users))",
      'IF(1, {Name}, {Name}) || (SELECT 1)',
      "CONCAT('\\'', {Name})",
    ];
    for (const formula of formulas) {
      const res = await s.call('POST', `/api/v1/db/meta/tables/${tableId}/columns`, {
        token: owner.token, body: { title: `F${randomBytes(3).toString('hex')}`, uidt: 'Formula', formula_raw: formula },
      });
      expect({ formula, status: res.status < 500 }).toEqual({ formula, status: true });
      if (res.status === 200) {
        accepted.push(formula);
        const rows = await s.call('GET', `/api/v1/db/data/noco/${baseId}/${tableId}`, { token: owner.token });
        expect({ formula, status: rows.status }).toEqual({ formula, status: 200 });
        expect(JSON.stringify(rows.body)).not.toContain('@example.com');
        expect((await s.call('DELETE', `/api/v1/db/meta/columns/${res.body.id}`, { token: owner.token })).status).toBe(200);
      }
      expect({ formula, probed: await probeCalled() }).toEqual({ formula, probed: false });
    }
    // Only the two formulas whose SQL-looking parts are string literals are valid; the rest are refused at parse time.
    expect(accepted).toEqual([formulas[0], formulas[5]]);
    // A string literal with quotes computes as text.
    const literal = await s.call('POST', `/api/v1/db/meta/tables/${tableId}/columns`, {
      token: owner.token, body: { title: 'Quoted', uidt: 'Formula', formula_raw: `CONCAT("it's '; DROP TABLE x; --", {Name})` },
    });
    expect(literal.status).toBe(200);
    const rows = await s.call('GET', `/api/v1/db/data/noco/${baseId}/${tableId}`, { token: owner.token });
    expect(rows.body.list[0].Quoted).toBe(`it's '; DROP TABLE x; --${SECRET}`);
  });

  it(`Stored XSS via SVG attachment upload ${UNVERIFIED}: served as a download, sandboxed, never sniffed`, async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" onload="alert(document.cookie)"><script>alert('${SECRET}')</script></svg>`;
    const up = await upload(s.url, owner.token, [{ name: 'logo.svg', type: 'image/svg+xml', data: Buffer.from(svg) }]);
    expect(up.status).toBe(200);
    for (const p of [up.body[0].path, up.body[0].signedPath]) {
      const res = await rawGet(s.url, `/${p}`, { 'xc-auth': owner.token });
      expect(res.status).toBe(200);
      expect(res.headers['content-disposition']).toMatch(/^attachment;/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toMatch(/sandbox/);
      expect(res.headers['content-security-policy']).toMatch(/default-src 'none'/);
    }
  });

  it(`Stored XSS via HTML attachments (HTML as .html, and HTML disguised as an image) ${UNVERIFIED}`, async () => {
    const html = `<html><body><script>fetch('/api/v1/auth/user/me').then(r=>r.text()).then(t=>alert(t))</script>${SECRET}</body></html>`;
    const up = await upload(s.url, owner.token, [
      { name: 'page.html', type: 'text/html', data: Buffer.from(html) },
      { name: 'photo.png', type: 'image/png', data: Buffer.from(html) },
      { name: 'page.xhtml', type: 'application/xhtml+xml', data: Buffer.from(html) },
    ]);
    expect(up.status).toBe(200);
    for (const item of up.body) {
      const res = await rawGet(s.url, `/${item.signedPath}`);
      expect(res.status).toBe(200);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toMatch(/sandbox/);
      // Markup is only ever a download: never inline, whatever type it was uploaded as.
      const type = String(res.headers['content-type']);
      if (/html|xml|svg/.test(type) || !/^image\/(png|jpeg|gif|webp)|^application\/pdf/.test(type)) {
        expect([item.title, res.headers['content-disposition']]).toEqual([item.title, expect.stringMatching(/^attachment;/)]);
      }
      // An image-typed upload served inline is never sniffed into HTML.
      if (/^image\//.test(type)) expect(res.headers['content-disposition']).toMatch(/^(inline|attachment);/);
    }
  });

  it(`SSRF through upload-by-url ${UNVERIFIED}: loopback, metadata and private targets are refused`, async () => {
    const port = new URL(canaryUrl).port;
    const before = canaryHits;
    for (const url of [
      `${canaryUrl}/x.png`, `http://localhost:${port}/x`, `http://[::1]:${port}/x`, `http://[::ffff:127.0.0.1]:${port}/x`,
      `http://2130706433:${port}/x`, `http://0x7f000001:${port}/x`, `http://0.0.0.0:${port}/x`, 'http://169.254.169.254/latest/meta-data/iam/',
      'http://[fd00:ec2::254]/latest/meta-data/', 'http://metadata.google.internal/computeMetadata/v1/', 'file:///etc/passwd', 'gopher://127.0.0.1:6379/_INFO',
    ]) {
      const res = await s.call('POST', '/api/v1/db/storage/upload-by-url', { token: owner.token, body: [{ url }] });
      expect({ url, status: res.status }).toEqual({ url, status: 400 });
    }
    expect(canaryHits).toBe(before);
    // A host name's resolved address is never echoed (it would map the internal network through DNS).
    const named = await s.call('POST', '/api/v1/db/storage/upload-by-url', { token: owner.token, body: [{ url: `http://localhost:${port}/x` }] });
    expect([named.status, named.body.message]).toEqual([400, expect.not.stringMatching(/127\.0\.0\.1|::1/)]);
  });

  it(`SSRF through webhooks ${UNVERIFIED}: hooks to loopback, metadata or private targets are refused, and the test call sends nothing`, async () => {
    const before = canaryHits;
    const port = new URL(canaryUrl).port;
    for (const target of [`${canaryUrl}/hook`, `http://localhost:${port}/hook`, `http://[::ffff:127.0.0.1]:${port}/hook`, 'http://169.254.169.254/latest/meta-data', 'http://10.0.0.1/hook', `http://2130706433:${port}/hook`]) {
      const hook = { title: 'h', event: 'after', operation: 'insert', version: 'v2', notification: { type: 'URL', payload: { method: 'POST', path: target } } };
      const created = await s.call('POST', `/api/v1/db/meta/tables/${tableId}/hooks`, { token: owner.token, body: hook });
      expect({ target, status: created.status }).toEqual({ target, status: 400 });
      const tested = await s.call('POST', `/api/v1/db/meta/tables/${tableId}/hooks/test`, { token: owner.token, body: { hook } });
      expect({ target, status: tested.status }).toEqual({ target, status: 400 });
      if (target.includes('localhost')) expect([target, created.body.message, tested.body.message]).toEqual([target, expect.not.stringMatching(/127\.0\.0\.1|::1/), expect.not.stringMatching(/127\.0\.0\.1|::1/)]);
    }
    expect(canaryHits).toBe(before);
  });

  it(`SSRF and port scanning through connection tests of sources and integrations ${UNVERIFIED}`, async () => {
    const before = canaryHits;
    const port = Number(new URL(canaryUrl).port);
    for (const host of ['127.0.0.1', 'localhost', '169.254.169.254', '10.0.0.1', '::1']) {
      const source = await s.call('POST', '/api/v1/db/meta/projects/', {
        token: owner.token, body: { title: `Ext${randomBytes(3).toString('hex')}`, external: true, sources: [{ type: 'pg', config: { client: 'pg', connection: { host, port, user: 'u', password: 'p', database: 'd' } } }] },
      });
      expect({ host, status: source.status }).toEqual({ host, status: 400 });
      const integration = await s.call('POST', '/api/v2/meta/integrations', {
        token: owner.token, body: { title: `I${randomBytes(3).toString('hex')}`, type: 'database', sub_type: 'pg', config: { client: 'pg', connection: { host, port, user: 'u', password: 'p', database: 'd' } } },
      });
      if (integration.status === 200) {
        const tested = await s.call('POST', `/api/v2/integrations/${integration.body.id}/testConnection`, { token: owner.token, body: {} });
        expect({ host, status: tested.status }).toEqual({ host, status: 400 });
        expect(String(tested.body.message)).toMatch(/not allowed/i);
        // A host name's resolved address is never echoed.
        if (host === 'localhost') expect(String(tested.body.message)).not.toMatch(/127\.0\.0\.1|::1/);
      } else {
        expect({ host, status: integration.status }).toEqual({ host, status: 400 });
      }
    }
    expect(canaryHits).toBe(before);
  });

  it(`Refresh tokens (and API tokens, JWTs) surviving a password reset ${UNVERIFIED}`, async () => {
    const victim = await s.signUp('adv-reset');
    const session = await signIn(victim.email, 'Password123!');
    const refreshToken = refreshOf(session) as string;
    expect(refreshToken).toMatch(/^[0-9a-f]{80}$/);
    const apiToken = (await s.call('POST', '/api/v1/tokens', { token: victim.token, body: { description: 'adv' } })).body.token;
    expect((await s.call('GET', '/api/v1/auth/user/me', { apiToken })).status).toBe(200);
    expect((await s.call('POST', '/api/v1/auth/password/forgot', { body: { email: victim.email } })).status).toBe(200);
    const token = await resetToken(victim.email);
    expect((await s.call('POST', `/api/v1/auth/password/reset/${token}`, { body: { password: 'Another-Password-9' } })).status).toBe(200);
    expect((await refresh(refreshToken)).status).toBe(401);
    expect((await s.call('GET', '/api/v1/auth/user/me', { apiToken })).status).toBe(401);
    expect((await s.call('GET', '/api/v1/auth/user/me', { token: session.body.token })).status).toBe(401);
    // The reset token works once.
    expect((await s.call('POST', `/api/v1/auth/password/reset/${token}`, { body: { password: 'Third-Password-9' } })).status).toBe(400);
    expect((await signIn(victim.email, 'Another-Password-9')).status).toBe(200);
  });

  it(`Prototype pollution through request bodies ${UNVERIFIED}: __proto__ and constructor.prototype never reach Object.prototype`, async () => {
    const bodies: Array<[string, string, string]> = [
      ['POST', `/api/v1/db/data/noco/${baseId}/${tableId}`, '{"Name":"p","__proto__":{"polluted":"yes"}}'],
      ['POST', `/api/v1/db/data/noco/${baseId}/${tableId}`, '{"Name":"p","constructor":{"prototype":{"polluted":"yes"}}}'],
      ['POST', `/api/v1/db/data/bulk/noco/${baseId}/${tableId}`, '[{"Name":"p","__proto__":{"polluted":"yes"}}]'],
      ['PATCH', `/api/v1/db/meta/tables/${tableId}`, '{"meta":{"__proto__":{"polluted":"yes"}},"__proto__":{"isAdmin":true}}'],
      ['PATCH', `/api/v1/db/meta/projects/${baseId}`, '{"meta":{"constructor":{"prototype":{"polluted":"yes"}}}}'],
      ['POST', '/api/v1/auth/user/signin', '{"email":"x@example.com","password":"p","__proto__":{"roles":"super"}}'],
      ['POST', `/api/v1/db/meta/tables/${tableId}/hooks`, '{"title":"h","event":"after","operation":"insert","notification":{"type":"URL","payload":{"method":"POST","path":"https://example.com","__proto__":{"polluted":"yes"}}}}'],
      ['POST', '/api/v1/db/meta/comments', `{"fk_model_id":"${tableId}","row_id":"1","comment":"c","__proto__":{"polluted":"yes"}}`],
    ];
    // Prototype keys as path names (integration endpoints) are unknown names, not properties.
    const integration = await s.call('POST', '/api/v2/meta/integrations', { token: owner.token, body: { title: 'proto', type: 'database', sub_type: 'pg', config: { client: 'pg', connection: { host: 'db.example.org', user: 'u', database: 'd' } } } });
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      const res = await s.call('POST', `/api/v2/integrations/${integration.body.id}/${name}`, { token: owner.token, body: {} });
      expect({ name, status: res.status }).toEqual({ name, status: 404 });
    }
    for (const [method, url, raw] of bodies) {
      const res = await s.call(method, url, { token: owner.token, raw });
      expect({ url, raw, status: res.status < 500 }).toEqual({ url, raw, status: true });
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    expect(({} as Record<string, unknown>).roles).toBeUndefined();
    const me = await s.call('GET', '/api/v1/auth/user/me', { token: owner.token });
    expect(String(me.body.roles)).not.toContain('super');
    const list = await s.call('GET', `/api/v1/db/data/noco/${baseId}/${tableId}`, { token: owner.token });
    expect(JSON.stringify(list.body)).not.toContain('polluted');
  });

  it(`Unauthenticated access to shared views and attachments ${UNVERIFIED}: no public route serves a base's rows`, async () => {
    const meta = await s.call('GET', `/api/v1/db/meta/tables/${tableId}`, { token: owner.token });
    const viewId = meta.body.views?.[0]?.id ?? 'vw0';
    for (const p of [
      `/api/v1/db/public/shared-view/${viewId}/rows`, `/api/v2/public/shared-view/${viewId}/rows`, `/api/v1/db/public/shared-view/${viewId}/meta`,
      `/api/v1/db/public/shared-base/${baseId}/meta`, `/api/v1/db/data/noco/${baseId}/${tableId}`, `/api/v1/db/data/noco/${baseId}/${tableId}/views/${viewId}`,
      `/api/v2/tables/${tableId}/records`, `/api/v1/db/meta/projects/${baseId}/swagger.json`,
    ]) {
      const res = await s.call('GET', p);
      expect({ p, status: [401, 404].includes(res.status), leaked: JSON.stringify(res.body ?? '').includes(SECRET) }).toEqual({ p, status: true, leaked: false });
    }
    // A private attachment needs its signed link (or credentials); its plain path is refused anonymously.
    const up = await upload(s.url, owner.token, [{ name: 'private.txt', type: 'text/plain', data: Buffer.from(SECRET) }]);
    const anonymous = await rawGet(s.url, `/${up.body[0].path}`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.toString()).not.toContain(SECRET);
  });

  it(`Unauthenticated access to a base's swagger ${UNVERIFIED}: the document needs credentials and the base; the public page carries no base data`, async () => {
    const stranger = await s.signUp('adv-swagger');
    expect((await s.call('GET', `/api/v1/db/meta/projects/${baseId}/swagger.json`)).status).toBe(401);
    const foreign = await s.call('GET', `/api/v1/db/meta/projects/${baseId}/swagger.json`, { token: stranger.token });
    const missing = await s.call('GET', '/api/v1/db/meta/projects/pmissing0000000/swagger.json', { token: stranger.token });
    expect([foreign.status, foreign.body.error]).toEqual([missing.status, missing.body.error]);
    expect(JSON.stringify(foreign.body)).not.toContain(SECRET);
    const own = await s.call('GET', `/api/v1/db/meta/projects/${baseId}/swagger.json`, { token: owner.token });
    expect(own.status).toBe(200);
    const page = await s.call('GET', `/api/v1/db/meta/projects/${baseId}/swagger`);
    const missingPage = await s.call('GET', '/api/v1/db/meta/projects/pmissing0000000/swagger');
    expect(page.status).toBe(missingPage.status);
    expect(String(page.body)).not.toContain(SECRET);
    expect(String(page.body)).not.toContain('Items');
    // The page reflects the id from the URL: it must come out escaped.
    const reflected = await s.call('GET', `/api/v1/db/meta/projects/${encodeURIComponent('"><script>alert(1)</script>')}/swagger`);
    expect(String(reflected.body)).not.toContain('<script>alert(1)</script>');
  });

  it(`User enumeration through sign-in, forgot-password and sign-up answers ${UNVERIFIED}`, async () => {
    const known = await s.signUp('adv-enum');
    const ghost = `ghost.${randomBytes(5).toString('hex')}@example.com`;
    const wrongPassword = await signIn(known.email, 'Wrong-Password-1');
    const unknownUser = await signIn(ghost, 'Wrong-Password-1');
    expect([wrongPassword.status, wrongPassword.body]).toEqual([unknownUser.status, unknownUser.body]);
    const forgotKnown = await s.call('POST', '/api/v1/auth/password/forgot', { body: { email: known.email } });
    const forgotGhost = await s.call('POST', '/api/v1/auth/password/forgot', { body: { email: ghost } });
    expect([forgotKnown.status, forgotKnown.body]).toEqual([forgotGhost.status, forgotGhost.body]);
    const badReset = await s.call('POST', '/api/v1/auth/password/reset/not-a-real-token-000000000000', { body: { password: 'Password123!x' } });
    expect(badReset.status).toBe(400);
    expect(JSON.stringify(badReset.body)).not.toContain('@');
  });

  it(`Privilege escalation through base member invites and role updates ${UNVERIFIED}`, async () => {
    const creator = await s.signUp('adv-creator');
    const editor = await s.signUp('adv-editor');
    const target = await s.signUp('adv-target');
    await s.addMember(owner, baseId, creator.email, 'creator');
    await s.addMember(owner, baseId, editor.email, 'editor');
    // An editor may not raise itself, nor invite anyone.
    expect((await s.call('PATCH', `/api/v1/db/meta/projects/${baseId}/users/${editor.id}`, { token: editor.token, body: { roles: 'owner' } })).status).toBe(403);
    expect((await s.call('POST', `/api/v1/db/meta/projects/${baseId}/users`, { token: editor.token, body: { email: target.email, roles: 'creator' } })).status).toBe(403);
    // A creator may not make owners, nor demote or remove the owner.
    expect((await s.call('POST', `/api/v1/db/meta/projects/${baseId}/users`, { token: creator.token, body: { email: target.email, roles: 'owner' } })).status).toBe(403);
    expect((await s.call('PATCH', `/api/v1/db/meta/projects/${baseId}/users/${creator.id}`, { token: creator.token, body: { roles: 'owner' } })).status).toBe(403);
    expect((await s.call('PATCH', `/api/v1/db/meta/projects/${baseId}/users/${owner.id}`, { token: creator.token, body: { roles: 'viewer' } })).status).toBe(403);
    expect((await s.call('DELETE', `/api/v1/db/meta/projects/${baseId}/users/${owner.id}`, { token: creator.token })).status).toBe(403);
    const members = await s.call('GET', `/api/v1/db/meta/projects/${baseId}/users`, { token: owner.token });
    const roleOf = (id: string) => members.body.users?.list?.find((u: { id: string }) => u.id === id)?.roles ?? members.body.list?.find((u: { id: string }) => u.id === id)?.roles;
    expect([roleOf(owner.id), roleOf(creator.id), roleOf(editor.id), roleOf(target.id)]).toEqual(['owner', 'creator', 'editor', undefined]);
  });

  it(`Open redirect through redirect parameters ${UNVERIFIED}: no route redirects off-site`, async () => {
    const evil = 'https://evil.example/phish';
    const q = `redirect=${encodeURIComponent(evil)}&redirect_to=${encodeURIComponent(evil)}&continue=${encodeURIComponent(evil)}&returnUrl=${encodeURIComponent(evil)}`;
    const up = await upload(s.url, owner.token, [{ name: 'r.txt', type: 'text/plain', data: Buffer.from('r') }]);
    for (const [method, p, body] of [
      ['POST', `/api/v1/auth/user/signin?${q}`, { email: owner.email, password: 'Password123!' }],
      ['POST', `/api/v1/auth/user/signout?${q}`, undefined],
      ['GET', `/${up.body[0].signedPath}?${q}`, undefined],
      ['GET', `/${up.body[0].path}?${q}`, undefined],
      ['GET', `/api/docs/?${q}`, undefined],
      ['GET', `/api/v1/db/meta/projects/${baseId}/swagger?${q}`, undefined],
      ['GET', `//evil.example/%2e%2e`, undefined],
      ['GET', `/%2F%2Fevil.example`, undefined],
    ] as Array<[string, string, unknown]>) {
      const res = await rawRequest(s.url, { method, path: p, headers: { 'xc-auth': owner.token, 'content-type': 'application/json' }, chunks: body ? [Buffer.from(JSON.stringify(body))] : [] });
      expect({ p, status: res.status !== undefined && res.status >= 300 && res.status < 400 }).toEqual({ p, status: false });
    }
  });
});
