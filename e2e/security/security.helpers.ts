import { randomBytes } from 'node:crypto';
import http from 'node:http';
import knex from 'knex';
import { startTestStack, type TestStack } from '@tabula/testing';
import type { ServiceDefinition } from '@tabula/runtime';
import { allServices } from '../../scripts/services';

/** A response as the security tests look at it. */
export interface Reply {
  status: number;
  body: any;
  headers: Headers;
}

/** A signed-up user: its JWT and id. */
export interface TestUser {
  email: string;
  token: string;
  id: string;
}

/** A whole Tabula for the security suite, with small call helpers. */
export interface SecurityStack {
  stack: TestStack;
  url: string;
  /** The first account (super admin). */
  admin: TestUser;
  call(method: string, path: string, options?: { token?: string; apiToken?: string; body?: unknown; raw?: string; headers?: Record<string, string> }): Promise<Reply>;
  signUp(name?: string): Promise<TestUser>;
  createBase(user: TestUser, title: string): Promise<string>;
  createTable(user: TestUser, baseId: string, title: string, columns?: unknown[]): Promise<string>;
  addMember(owner: TestUser, baseId: string, email: string, role: string): Promise<void>;
  stop(): Promise<void>;
}

/** Makes a user an org-level creator (may create bases), as an admin would. */
async function promote(url: string, userId: string): Promise<void> {
  const db = knex({ client: 'pg', connection: url, pool: { min: 0, max: 1 } });
  try {
    await db.withSchema('auth').table('users').where({ id: userId }).update({ roles: 'org-level-creator' });
  } finally {
    await db.destroy();
  }
}

/** Starts every service (or the given ones) on a fresh database with isolated rate-limit keys. */
export async function startSecurityStack(env: Record<string, string> = {}, services: ServiceDefinition<any, any>[] = allServices): Promise<SecurityStack> {
  const stack = await startTestStack(services, { SVC_AUTH_RATE_KEY_PREFIX: `sec:${randomBytes(6).toString('hex')}:`, ...env });
  const call: SecurityStack['call'] = async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (options.token) headers['xc-auth'] = options.token;
    if (options.apiToken) headers['xc-token'] = options.apiToken;
    let body: string | undefined = options.raw;
    if (options.raw !== undefined) headers['content-type'] ??= 'application/json';
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(`${stack.url}${path}`, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try { parsed = text ? JSON.parse(text) : undefined; } catch { /* not JSON: keep the text */ }
    return { status: res.status, body: parsed, headers: res.headers };
  };
  const ok = (res: Reply, what: string): Reply => {
    if (res.status >= 300) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
    return res;
  };
  const self: SecurityStack = {
    stack, url: stack.url, call, admin: undefined as unknown as TestUser,
    async signUp(name = 'user') {
      const email = `${name}.${randomBytes(5).toString('hex')}@example.com`;
      const res = ok(await call('POST', '/api/v1/auth/user/signup', { body: { email, password: 'Password123!' } }), 'signup');
      // Promoted before the gateway first sees the token (it caches principals briefly).
      const claims = JSON.parse(Buffer.from(String(res.body.token).split('.')[1], 'base64url').toString('utf8')) as { id: string; roles?: string };
      if (!String(claims.roles ?? '').includes('super')) await promote(stack.database.url, claims.id);
      return { email, token: res.body.token, id: claims.id };
    },
    async createBase(user, title) {
      return ok(await call('POST', '/api/v1/db/meta/projects/', { token: user.token, body: { title } }), 'create base').body.id;
    },
    async createTable(user, baseId, title, columns) {
      const body = {
        title, table_name: title.toLowerCase().replace(/[^a-z0-9]/g, '_'),
        columns: columns ?? [
          { column_name: 'id', title: 'Id', uidt: 'ID', pk: true, ai: true },
          { column_name: 'name', title: 'Name', uidt: 'SingleLineText' },
        ],
      };
      return ok(await call('POST', `/api/v1/db/meta/projects/${baseId}/tables`, { token: user.token, body }), 'create table').body.id;
    },
    async addMember(owner, baseId, email, role) {
      ok(await call('POST', `/api/v1/db/meta/projects/${baseId}/users`, { token: owner.token, body: { email, roles: role } }), 'add member');
    },
    stop: () => stack.stop(),
  };
  // The first account is the super admin: take it here so test users are ordinary tenants.
  self.admin = await self.signUp('admin');
  return self;
}

/** A request sent byte for byte (fetch would normalise the path and buffer the body). */
export interface RawRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  /** Sent as a chunked body, one write per chunk. */
  chunks?: Buffer[];
}

/** Sends a raw HTTP/1.1 request; resolves with the status and text (or the connection error). */
export function rawRequest(baseUrl: string, request: RawRequest): Promise<{ status?: number; text: string; error?: string }> {
  const url = new URL(baseUrl);
  return new Promise((resolve) => {
    const req = http.request({ host: url.hostname, port: url.port, method: request.method, path: request.path, headers: request.headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode, text: Buffer.concat(parts).toString('utf8') }));
      res.on('error', (e) => resolve({ status: res.statusCode, text: Buffer.concat(parts).toString('utf8'), error: e.message }));
    });
    req.on('error', (e) => resolve({ text: '', error: e.message }));
    const write = async () => {
      for (const chunk of request.chunks ?? []) {
        if (req.destroyed) return;
        if (!req.write(chunk)) await new Promise((r) => { req.once('drain', r); req.once('close', r); });
      }
      req.end();
    };
    void write();
  });
}
