import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import request from 'supertest';
import { BaseAccess, signIdentity, type Principal } from '@tabula/auth';
import type { ServiceClient, ServiceRequest, ServiceResponse } from '@tabula/http';
import type { EventMessage } from '@tabula/events';
import { topics } from '@tabula/contracts';
import { buildSharedPorts, loadPlatformConfig, prepareService, roleLookupOf, stopWorkers, type Worker } from '@tabula/runtime';
import { createLogger } from '@tabula/telemetry';
import { createTestDatabase, type TestDatabase } from '@tabula/testing';
import { integrationsService } from '../src/service';

/** The internal secret of the harness (tests forge identities with it). */
export const INTERNAL = 'internal-secret-for-the-integrations-tests-0123456789';
/** The at-rest key ring of the harness: fixed, so a restart on the same database (new DATA_DIR) opens what it sealed. */
export const ENCRYPTION_KEYS = 'encryption-key-for-the-integrations-tests-0123456789';

/** Stands in for meta's internal sources endpoint (a service test must not import meta). */
export class FakeMeta implements ServiceClient {
  readonly sources = new Map<string, { id: string; base_id: string; alias: string | null; type: string }[]>();

  async request<T>(service: string, req: ServiceRequest): Promise<ServiceResponse<T>> {
    const m = /^\/internal\/integrations\/([^/]+)\/sources$/.exec(req.path);
    if (service === 'meta' && m) return { status: 200, body: { list: this.sources.get(decodeURIComponent(m[1])) ?? [] } as T };
    return { status: 404, body: {} as T };
  }
}

/** A running integrations service on a fresh database. */
export interface IntegrationsHarness {
  server: Server;
  database: TestDatabase;
  meta: FakeMeta;
  dataDir: string;
  events: EventMessage[];
  shared: ReturnType<typeof buildSharedPorts>;
  http: ReturnType<typeof request>;
  as(principal: Partial<Principal> & { id: string }): Record<string, string>;
  /** Identity header of another service. */
  service: Record<string, string>;
  stop(options?: { keepDatabase?: boolean }): Promise<void>;
}

/** Starts the integrations service alone, collecting `tabula.integrations` events. */
export async function startIntegrationsHarness(options: { env?: Record<string, string>; database?: TestDatabase } = {}): Promise<IntegrationsHarness> {
  const database = options.database ?? await createTestDatabase();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tabula-integrations-'));
  const fullEnv = {
    TABULA_MODE: 'standalone', DATABASE_URL: database.url, SVC_INTERNAL_SECRET: INTERNAL, SVC_JWT_SECRET: 'jwt-secret-0123456789', SVC_ENCRYPTION_KEYS: ENCRYPTION_KEYS,
    EVENT_BUS: 'memory', LOG_LEVEL: 'silent', DATA_DIR: dataDir, ...(options.env ?? {}),
  } as NodeJS.ProcessEnv;
  const platform = loadPlatformConfig(fullEnv);
  const shared = buildSharedPorts({ platform, databaseUrl: database.url, logger: createLogger('test', 'silent'), caller: 'integrations' });
  const meta = new FakeMeta();
  const prepared = await prepareService(integrationsService, { ...shared, services: meta, baseAccess: new BaseAccess(roleLookupOf(meta)) }, fullEnv);
  const events: EventMessage[] = [];
  const sub = await shared.bus.subscribe({ group: 'test-integrations', topics: [topics.integrations], handler: async (m) => { events.push(m); } });
  const workers: Worker[] = await prepared.start();
  const server = http.createServer(prepared.app.callback());
  // signed with the secret this start was given (a test may change it between restarts)
  const internal = shared.internalSecret;
  const as = (p: Partial<Principal> & { id: string }) => ({ 'x-tabula-identity': signIdentity({ kind: 'user', roles: ['org-level-creator'], ...p }, internal) });
  return {
    server, database, meta, dataDir, events, shared, http: request(server), as,
    service: { 'x-tabula-identity': signIdentity({ kind: 'service', id: 'meta', roles: [] }, internal) },
    async stop(stopOptions = {}) {
      await stopWorkers(workers, () => undefined);
      await sub.close();
      await shared.close();
      if (!stopOptions.keepDatabase) await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Users of the visibility matrix. */
export const users = {
  owner: { id: 'us0000000000owner', email: 'owner@example.com', roles: ['org-level-creator'] },
  admin: { id: 'us0000000000admin', email: 'admin@example.com', roles: ['org-level-creator', 'super'] },
  creator: { id: 'us00000000creator', email: 'creator@example.com', roles: ['org-level-creator'] },
  viewer: { id: 'us000000000viewer', email: 'viewer@example.com', roles: ['org-level-viewer'] },
};

/** Polls until the condition holds. */
export async function waitFor(check: () => boolean, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
