import { randomBytes } from 'node:crypto';
import knexFactory from 'knex';
import { TestApi, backendUrl, createTestDatabase, describeWithBackend, startTestStack, type TestStack } from '@tabula/testing';
import { allServices } from '../scripts/services';

/**
 * The data sources an e2e suite runs its bases on: the default PostgreSQL
 * source, an external PostgreSQL database, an external SQLite file and an
 * external MariaDB database (each fresh, dropped by the suite's cleanups).
 */
export type SourceVariantName = 'default source' | 'external PostgreSQL' | 'external SQLite' | 'external MariaDB';

/** One source variant: its name and the source part of a base-creation body. */
export interface SourceVariant {
  name: SourceVariantName;
  /** `{}` or `{ external: true, sources: [...] }`; undefined when its backend is not configured (no MYSQL_URL). */
  body: () => Promise<Record<string, unknown> | undefined>;
}

/** What a suite runs in its afterAll (after stopping its stack). */
export type Cleanups = (() => Promise<void>)[];

/** knex connection settings of a PostgreSQL URL. */
export function pgConnection(url: string) {
  const u = new URL(url);
  return { host: u.hostname, port: Number(u.port || 5432), user: decodeURIComponent(u.username), password: decodeURIComponent(u.password), database: u.pathname.slice(1) };
}

/** A fresh MariaDB database (`prefix_<random>`) and its connection settings; undefined without MYSQL_URL. */
export async function mariaDbDatabase(prefix: string, cleanups: Cleanups) {
  const admin = backendUrl('mysql');
  if (!admin) return undefined;
  const database = `${prefix}_${randomBytes(4).toString('hex')}`;
  const k = knexFactory({ client: 'mysql2', connection: admin });
  await k.raw('CREATE DATABASE ??', [database]);
  cleanups.push(async () => { await k.raw('DROP DATABASE IF EXISTS ??', [database]); await k.destroy(); });
  const u = new URL(admin);
  return { host: u.hostname, port: Number(u.port || 3306), user: decodeURIComponent(u.username), password: decodeURIComponent(u.password), database };
}

/** The source part of a base on a fresh SQLite file (`prefix-<random>.db` in the data service's directory). */
export function sqliteSource(prefix: string): Record<string, unknown> {
  return { external: true, sources: [{ type: 'sqlite3', config: { client: 'sqlite3', connection: { filename: `${prefix}-${randomBytes(3).toString('hex')}.db` } } }] };
}

/** The source part of a base on a MariaDB connection. */
export function mariaDbSource(connection: Record<string, unknown>): Record<string, unknown> {
  return { external: true, sources: [{ type: 'mysql2', config: { client: 'mysql2', connection } }] };
}

const DEFAULT_NAMES: SourceVariantName[] = ['default source', 'external SQLite', 'external MariaDB'];

/**
 * The variants `names` (default: the default source, SQLite, MariaDB); fresh
 * databases and files are named after `prefix`, dropped by `cleanups`.
 */
export function sourceVariants(prefix: string, cleanups: Cleanups, names: readonly SourceVariantName[] = DEFAULT_NAMES): SourceVariant[] {
  const bodies: Record<SourceVariantName, SourceVariant['body']> = {
    'default source': async () => ({}),
    'external PostgreSQL': async () => {
      const db = await createTestDatabase(`tabula_${prefix}`);
      cleanups.push(() => db.drop());
      return { external: true, sources: [{ type: 'pg', config: { client: 'pg', connection: pgConnection(db.url) } }] };
    },
    'external SQLite': async () => sqliteSource(prefix),
    'external MariaDB': async () => {
      const connection = await mariaDbDatabase(`tabula_${prefix}`, cleanups);
      return connection && mariaDbSource(connection);
    },
  };
  return names.map((name) => ({ name, body: bodies[name] }));
}

/**
 * `describe` for a variant. The MariaDB variant needs MYSQL_URL: without it its
 * tests are skipped with the reason printed (and fail under REQUIRE_BACKENDS),
 * never counted as passed.
 */
export function describeVariant(name: SourceVariantName, title: string, body: () => void): void {
  if (name === 'external MariaDB') describeWithBackend('mysql', title, body);
  else describe(title, body);
}

/** A whole-stack suite over source variants: its stack, its signed-up user's token, and a raw caller as that user. */
export interface VariantSuite {
  readonly stack: TestStack;
  readonly token: string;
  variants: SourceVariant[];
  /** An HTTP call as the suite's user (`xc-auth`): its status and parsed body. */
  raw: (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;
}

/**
 * Declares the suite's beforeAll (every service on one stack, external sources
 * on this machine's databases allowed, a user `email` signed up) and afterAll
 * (the stack stopped, the variants' databases dropped).
 */
export function variantSuite(prefix: string, email: string, names?: readonly SourceVariantName[]): VariantSuite {
  const cleanups: Cleanups = [];
  let stack: TestStack | undefined;
  let token = '';
  beforeAll(async () => {
    stack = await startTestStack(allServices, { SVC_ALLOW_LOCAL_SOURCES: 'true' });
    token = (await new TestApi(stack.url).signUp('e2e', email)).token;
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    for (const c of cleanups) await c().catch(() => undefined);
  });
  return {
    get stack() { return stack!; },
    get token() { return token; },
    variants: sourceVariants(prefix, cleanups, names),
    raw: async (method, path, body) => {
      const res = await new TestApi(stack!.url).call(method, path, { body, headers: { 'xc-auth': token } });
      return { status: res.status, body: res.body };
    },
  };
}
