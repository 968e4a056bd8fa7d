import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import request from 'supertest';
import { BaseAccess, signIdentity, type Principal } from '@tabula/auth';
import { errors, InMemoryServices } from '@tabula/http';
import { authInternal, hooksCopy, hooksDeleteOfTables, hooksInternalEndpoints, storageShareEndpoints } from '@tabula/contracts';
import type { EventBus, EventMessage } from '@tabula/events';
import { buildSharedPorts, loadPlatformConfig, prepareService, roleLookupOf, stopWorkers, type Worker } from '@tabula/runtime';
import { createLogger } from '@tabula/telemetry';
import { createTestDatabase, type TestDatabase } from '@tabula/testing';
import { metaService } from '../src/service';

/** The internal secret of the harness (tests forge identities with it). */
export const INTERNAL = 'internal-secret-for-the-meta-service-tests-0123456789';
/** The at-rest key ring of the harness: fixed, so a restart on the same database (new DATA_DIR) opens what it sealed. */
export const ENCRYPTION_KEYS = 'encryption-key-for-the-meta-tests-0123456789';

/**
 * Typed in-memory stand-ins for the auth service's membership endpoints, the
 * hooks service's copy endpoints and storage's share endpoint (a service test
 * must not import other services).
 */
export class FakeAuth extends InMemoryServices {
  readonly roles = new Map<string, string>();
  /** Makes role grants fail: auth answers 500, or cannot be reached. */
  failGrants?: 'error' | 'unreachable';
  /** Bodies of the hooks service's copy and delete-of-tables calls, in order. */
  readonly hookCalls: { path: string; body: any }[] = [];
  /** Makes the hooks copy answer 500. */
  failHookCopy = false;
  /** Bodies of the storage service's share calls (a duplicate with data), in order. */
  readonly shareCalls: any[] = [];
  /** Makes the storage share answer 500. */
  failShare = false;

  constructor() {
    super();
    this.implement(authInternal, {
      roleOf: ({ params: { baseId, userId } }) => {
        const role = this.roles.get(`${baseId}:${userId}`);
        if (!role) throw errors.notFound('ERR_MEMBER_NOT_FOUND', 'no role');
        return { role };
      },
      setRole: ({ params: { baseId, userId }, body }) => {
        if (this.failGrants === 'unreachable') throw errors.unavailable("Service 'auth' is unavailable");
        if (this.failGrants) throw errors.internal();
        this.roles.set(`${baseId}:${userId}`, body.role);
        return { role: body.role };
      },
    });
    this.implement(hooksInternalEndpoints, {
      hooksCopy: ({ body }) => {
        this.hookCalls.push({ path: hooksCopy.path, body });
        if (this.failHookCopy) throw errors.internal();
        return { copied: body.tables?.length ?? 0 } as never;
      },
      hooksDeleteOfTables: ({ body }) => {
        this.hookCalls.push({ path: hooksDeleteOfTables.path, body });
        return { deleted: body.tableIds?.length ?? 0 } as never;
      },
    });
    this.implement(storageShareEndpoints, {
      storageAttachmentsShare: ({ body }) => {
        if (this.failShare) throw errors.internal();
        this.shareCalls.push(body);
        return { shared: 0 };
      },
    });
  }
}

/** A running meta service on a fresh database. */
export interface MetaHarness {
  server: Server;
  database: TestDatabase;
  auth: FakeAuth;
  dataDir: string;
  events: EventMessage[];
  shared: ReturnType<typeof buildSharedPorts>;
  /** supertest agent bound to the server. */
  http: ReturnType<typeof request>;
  as(principal: Partial<Principal> & { id: string }): Record<string, string>;
  /** A super admin's identity header. */
  superUser: Record<string, string>;
  /** Stops the service; `keepDatabase` leaves the database for a restarted instance. */
  stop(options?: { keepDatabase?: boolean }): Promise<void>;
}

/** How to start the harness. */
export interface MetaHarnessOptions {
  env?: Record<string, string>;
  /** Reuse a database (a restart of the service). */
  database?: TestDatabase;
  /** Wraps the bus the service publishes to (e.g. to simulate a broker outage). */
  wrapBus?: (bus: EventBus) => EventBus;
}

/** Starts the meta service alone on a fresh database, collecting `tabula.meta` events. */
export async function startMetaHarness(options: MetaHarnessOptions = {}): Promise<MetaHarness> {
  const env = options.env ?? {};
  const database = options.database ?? await createTestDatabase();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tabula-meta-'));
  const fullEnv = {
    TABULA_MODE: 'standalone', DATABASE_URL: database.url, SVC_INTERNAL_SECRET: INTERNAL, SVC_JWT_SECRET: 'jwt-secret-0123456789', SVC_ENCRYPTION_KEYS: ENCRYPTION_KEYS,
    EVENT_BUS: 'memory', LOG_LEVEL: 'silent', DATA_DIR: dataDir, ...env,
  } as NodeJS.ProcessEnv;
  const platform = loadPlatformConfig(fullEnv);
  const shared = buildSharedPorts({ platform, databaseUrl: database.url, logger: createLogger('test', 'silent'), caller: 'meta' });
  const auth = new FakeAuth();
  const bus = options.wrapBus ? options.wrapBus(shared.bus) : shared.bus;
  const prepared = await prepareService(metaService, { ...shared, bus, services: auth, baseAccess: new BaseAccess(roleLookupOf(auth)) }, fullEnv);
  const events: EventMessage[] = [];
  const sub = await shared.bus.subscribe({ group: 'test-meta', topics: ['meta'], handler: async (m) => { events.push(m); } });
  const workers: Worker[] = await prepared.start();
  const server = http.createServer(prepared.app.callback());
  const as = (p: Partial<Principal> & { id: string }) => ({ 'x-tabula-identity': signIdentity({ kind: 'user', roles: ['org-level-creator'], ...p }, INTERNAL) });
  return {
    server, database, auth, dataDir, events, shared, http: request(server), as,
    superUser: as({ id: 'us00000000000001', email: 'admin@example.com', roles: ['org-level-creator', 'super'] }),
    async stop(stopOptions = {}) {
      await stopWorkers(workers, () => undefined);
      await sub.close();
      await shared.close();
      if (!stopOptions.keepDatabase) await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Polls until the condition holds (events are published by the relay after commit). */
export async function waitFor(check: () => boolean, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
