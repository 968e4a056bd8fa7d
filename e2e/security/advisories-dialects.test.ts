import { randomBytes } from 'node:crypto';
import knex from 'knex';
import { backendUrl, backendsRequired, startTestStack, type TestStack } from '@tabula/testing';
import { allServices } from '../../scripts/services';

/** CVE-2023-43794 on every source dialect (the advisory catalogue's per-dialect part; advisories.test.ts has the rest). */

/**
 * CVE-2023-43794 on every dialect: quoting differs (MySQL takes backslash
 * escapes, SQLite has no sleep), so the injection payloads run against a base
 * on each kind of source: the default PostgreSQL one, an external SQLite file
 * and an external MariaDB (when MYSQL_URL is set). Local sources need
 * SVC_ALLOW_LOCAL_SOURCES, hence a stack of its own.
 */
describe('CVE-2023-43794 replayed on every source dialect', () => {
  let stack: TestStack;
  let token = '';
  const cleanups: Array<() => Promise<void>> = [];
  /** The MariaDB variant's probe, in the database its source() created. */
  let mariaProbe: (() => Promise<{ sql: string; called(): Promise<boolean> }>) | undefined;
  const call = async (method: string, p: string, body?: unknown) => {
    const res = await fetch(`${stack.url}${p}`, { method, headers: { 'xc-auth': token, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  beforeAll(async () => {
    stack = await startTestStack(allServices, { SVC_ALLOW_LOCAL_SOURCES: 'true' });
    const res = await fetch(`${stack.url}/api/v1/auth/user/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: `dialects.${randomBytes(4).toString('hex')}@example.com`, password: 'Password123!' }) });
    token = ((await res.json()) as { token: string }).token;
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    for (const c of cleanups) await c().catch(() => undefined);
  });

  /**
   * Per dialect, an SQL expression with a side effect a rolled-back or failed statement does not undo (a sequence
   * advanced), and whether it ever ran: a payload that became SQL runs it; one that stayed data never does (instead
   * of timing a sleep, which depended on machine speed). SQLite has no such function.
   */
  interface Probe { sql: string; called(): Promise<boolean> }
  const variants: Array<{ name: string; probe?: () => Promise<Probe>; source: () => Promise<Record<string, unknown> | undefined> }> = [
    {
      name: 'PostgreSQL (default source)', source: async () => ({}), probe: async () => {
        const k = knex({ client: 'pg', connection: stack.database.url, pool: { min: 0, max: 1 } });
        cleanups.push(() => k.destroy());
        await k.raw('CREATE SEQUENCE public.sqli_probe_calls');
        await k.raw("CREATE FUNCTION public.sqli_probe() RETURNS boolean LANGUAGE sql VOLATILE AS $$ SELECT nextval('public.sqli_probe_calls') > 0 $$");
        return { sql: 'public.sqli_probe()', called: async () => (await k.raw('SELECT is_called FROM public.sqli_probe_calls')).rows[0].is_called === true };
      },
    },
    { name: 'SQLite (external)', source: async () => ({ external: true, sources: [{ type: 'sqlite3', config: { client: 'sqlite3', connection: { filename: `adv-${randomBytes(3).toString('hex')}.db` } } }] }) },
    {
      name: 'MariaDB (external)', source: async () => {
        const admin = backendUrl('mysql');
        if (!admin) return undefined;
        const database = `tabula_adv_${randomBytes(4).toString('hex')}`;
        const k = knex({ client: 'mysql2', connection: admin });
        await k.raw('CREATE DATABASE ??', [database]);
        cleanups.push(async () => { await k.raw('DROP DATABASE IF EXISTS ??', [database]); await k.destroy(); });
        mariaProbe = async () => {
          await k.raw('CREATE SEQUENCE ??.sqli_probe', [database]);
          const next = async () => Number((await k.raw('SELECT next_not_cached_value AS n FROM ??.sqli_probe', [database]))[0][0].n);
          const before = await next();
          return { sql: `NEXTVAL(${database}.sqli_probe)`, called: async () => (await next()) !== before };
        };
        const u = new URL(admin);
        return { external: true, sources: [{ type: 'mysql2', config: { client: 'mysql2', connection: {
          host: u.hostname, port: Number(u.port || 3306), user: decodeURIComponent(u.username), password: decodeURIComponent(u.password), database,
        } } }] };
      },
    },
  ];

  it.each(variants)('$name: quotes, backslashes and SQL in values, titles, where, sort and formulas stay data', async ({ name, probe, source }) => {
    const extra = await source();
    if (!extra) {
      // MariaDB not configured on this machine: skipped, unless CI requires every backend.
      if (backendsRequired()) throw new Error('MYSQL_URL is not set (REQUIRE_BACKENDS)');
      return;
    }
    const base = await call('POST', '/api/v1/db/meta/projects', { title: `Dialect ${randomBytes(3).toString('hex')}`, ...extra });
    expect(base.status).toBe(200);
    const evilTitle = "Na'me\\\\\" -- ;";
    const table = await call('POST', `/api/v1/db/meta/projects/${base.body.id}/tables`, {
      title: "It'ems\\", table_name: 'items', columns: [{ title: 'Id', column_name: 'id', uidt: 'ID', pk: true, ai: true }, { title: evilTitle, column_name: 'name', uidt: 'SingleLineText' }],
    });
    expect([table.status, table.body.message]).toEqual([200, undefined]);
    const rows = `/api/v1/db/data/noco/${base.body.id}/${table.body.id}`;
    // (No leading or trailing blanks: the where syntax trims values.)
    const tricky = ["\\' OR 1=1 --", "x\\'; DROP TABLE items; --", "' OR '1'='1", '\\', "\\\\'", "'); SELECT 1; --"];
    for (const value of tricky) expect((await call('POST', rows, { [evilTitle]: value })).status).toBe(200);
    const all = await call('GET', rows);
    expect(all.body.list.map((r: Record<string, string>) => r[evilTitle]).sort()).toEqual([...tricky].sort());
    // Each value finds exactly itself; injection-shaped values find nothing else.
    for (const value of tricky) {
      const found = await call('GET', `${rows}?where=${encodeURIComponent(`(${evilTitle},eq,${value})`)}`);
      expect({ value, status: found.status, list: found.body.list?.map((r: Record<string, string>) => r[evilTitle]) }).toEqual({ value, status: 200, list: [value] });
    }
    const payloads = [`(${evilTitle},eq,x\\' OR 1=1 -- )`, `(${evilTitle},like,%zz\\' OR 1=1 -- )`, `(${evilTitle},in,a\\',b)`];
    const injected = name.startsWith('MariaDB') ? await mariaProbe?.() : await probe?.();
    if (injected) payloads.push(`(${evilTitle},eq,x' OR ${injected.sql} -- )`, `(${evilTitle},eq,x\\' OR ${injected.sql} -- )`);
    for (const where of payloads) {
      const res = await call('GET', `${rows}?where=${encodeURIComponent(where)}`);
      expect({ where, status: res.status < 500, rows: res.body.list?.length ?? 0, probed: await injected?.called() ?? false }).toEqual({ where, status: true, rows: 0, probed: false });
    }
    const sorted = await call('GET', `${rows}?sort=${encodeURIComponent(`-${evilTitle}`)}`);
    expect([sorted.status, sorted.body.list.length]).toEqual([200, tricky.length]);
    // A formula's string literal with quotes and backslashes computes as text.
    const formula = await call('POST', `/api/v1/db/meta/tables/${table.body.id}/columns`, { title: 'F', uidt: 'Formula', formula_raw: `CONCAT("a\\' OR 1=1 -- ", {${evilTitle}})` });
    expect([formula.status, formula.body.message]).toEqual([200, undefined]);
    const computed = await call('GET', `${rows}?where=${encodeURIComponent(`(${evilTitle},eq,' OR '1'='1)`)}`);
    // (`\\'` in a formula string is an escaped quote, as in NocoDB's formula language, on every dialect.)
    expect(computed.body.list[0].F).toBe("a' OR 1=1 -- ' OR '1'='1");
  }, 60_000);
});
