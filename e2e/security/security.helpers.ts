import { randomBytes } from 'node:crypto';
import http from 'node:http';
import knex from 'knex';
import { TestApi, col, startTestStack, type ColumnSpec, type TestStack } from '@tabula/testing';
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
  /** A new user, promoted to org-level creator unless `promote: false` (an org-level viewer, as NocoDB signs users up). */
  signUp(name?: string, options?: { promote?: boolean }): Promise<TestUser>;
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
  const api = new TestApi(stack.url);
  const call: SecurityStack['call'] = async (method, path, options = {}) => {
    const res = await api.call(method, path, options);
    return { status: res.status, body: res.body, headers: res.headers };
  };
  const self: SecurityStack = {
    stack, url: stack.url, call, admin: undefined as unknown as TestUser,
    async signUp(name = 'user', options = {}) {
      const user = await api.signUp(name);
      // Promoted before the gateway first sees the token (it caches principals briefly).
      if (!user.roles.includes('super') && options.promote !== false) await promote(stack.database.url, user.id);
      return { email: user.email, token: user.token, id: user.id };
    },
    async createBase(user, title) {
      return (await api.createBase(user, title)).id;
    },
    async createTable(user, baseId, title, columns) {
      const table_name = title.toLowerCase().replace(/[^a-z0-9]/g, '_');
      return (await api.createTable(user, baseId, { title, table_name, columns: (columns as ColumnSpec[] | undefined) ?? [col.id(), col.text('Name')] })).id;
    },
    addMember: (owner, baseId, email, role) => api.addMember(owner, baseId, email, role),
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
