import http from 'node:http';
import type { Server } from 'node:http';
import { BaseAccess, signIdentity, type Principal } from '@tabula/auth';
import { errors, InMemoryServices, type ServiceName, type ServiceRequest, type ServiceResponse } from '@tabula/http';
import { authInternal, metaInternal, metaInternalEndpoints, storageInternalEndpoints, type TableContext } from '@tabula/contracts';
import type { EventMessage } from '@tabula/events';
import { buildSharedPorts, loadPlatformConfig, prepareService, roleLookupOf, stopWorkers, type Worker } from '@tabula/runtime';
import { createLogger } from '@tabula/telemetry';
import { createTestDatabase, type TestDatabase } from '@tabula/testing';
import { dataService } from '../src/service';
import type { DataPorts } from '../src/ports';

const INTERNAL = 'internal-secret-for-the-data-service-tests-0123456789';

/**
 * Typed in-memory meta and auth internal APIs (this test must not import other
 * services): table contexts and base roles registered by the test.
 */
export class FakeInternalApis extends InMemoryServices {
  readonly tables = new Map<string, TableContext>();
  readonly roles = new Map<string, string>();
  /** Calls to storage's internal attachment API. */
  readonly storageCalls: ServiceRequest[] = [];
  /** When set, storage's sign answers `dltemp/test-<n>` links instead of none. */
  signLinks = false;
  /** Paths storage's claim refuses (another base's file, another user's upload). */
  readonly refusedPaths = new Set<string>();

  override async request<T>(service: ServiceName, req: ServiceRequest): Promise<ServiceResponse<T>> {
    if (service === 'storage') this.storageCalls.push(req);
    return super.request<T>(service, req);
  }

  constructor() {
    super();
    const findTable = (match: (c: TableContext) => boolean, ref: string) => {
      const found = [...this.tables.values()].find(match);
      if (!found) throw errors.notFound('ERR_TABLE_NOT_FOUND', `Table '${ref}' not found`);
      return found;
    };
    this.implement(metaInternal, {
      tableContextByRef: ({ params: { baseRef, tableRef } }) => findTable((c) => [c.base.id, c.base.title].includes(baseRef)
        && [c.table.id, c.table.title, c.table.table_name].includes(tableRef), tableRef),
      tableContext: ({ params: { tableId } }) => findTable((c) => c.table.id === tableId, tableId),
    });
    this.implement(metaInternalEndpoints, {
      baseCandidates: ({ params: { baseRef } }) => {
        const bases = [...new Map([...this.tables.values()].map((c) => [c.base.id, c.base])).values()];
        const byId = bases.find((b) => b.id === baseRef)?.id;
        return { byId, byTitle: byId ? [] : bases.filter((b) => b.title === baseRef).map((b) => b.id) };
      },
    });
    // Storage's internal attachment API: every attachment may enter the base; signed links only when asked.
    this.implement(storageInternalEndpoints, {
      storageAttachmentsClaim: ({ body }) => ({ refused: body.items.flatMap((item, i) => (item.path && this.refusedPaths.has(item.path) ? [i] : [])) }),
      storageAttachmentsSign: ({ body }) => ({ links: body.items.map((_, i) => (this.signLinks ? { signedPath: `dltemp/test-${i}` } : null)) }),
    });
    this.implement(authInternal, {
      roleOf: ({ params: { baseId, userId } }) => {
        const role = this.roles.get(`${baseId}:${userId}`);
        if (!role) throw errors.notFound('ERR_MEMBER_NOT_FOUND', 'no role');
        return { role };
      },
    });
  }

  /** Calls to meta's table lookups so far. */
  get metaCalls(): number {
    return (this.calls.get(metaInternal.tableContextByRef.id) ?? 0) + (this.calls.get(metaInternal.tableContext.id) ?? 0);
  }
}

/** A running data service on a fresh database, with the memory bus's records events collected. */
export interface DataHarness {
  server: Server;
  database: TestDatabase;
  apis: FakeInternalApis;
  shared: ReturnType<typeof buildSharedPorts>;
  /** The data service's ports (use cases called in the test's process). */
  ports: DataPorts;
  events: EventMessage[];
  as(principal: Partial<Principal> & { id: string }): Record<string, string>;
  stop(): Promise<void>;
}

/** Starts the data service alone (supertest target) with `env` overrides. */
export async function startDataHarness(env: Record<string, string> = {}): Promise<DataHarness> {
  const database = await createTestDatabase();
  const fullEnv = { TABULA_MODE: 'standalone', DATABASE_URL: database.url, SVC_INTERNAL_SECRET: INTERNAL, SVC_JWT_SECRET: 'jwt-secret-for-the-data-tests', EVENT_BUS: 'memory', LOG_LEVEL: 'silent', DATA_DIR: '/tmp', ...env } as NodeJS.ProcessEnv;
  const platform = loadPlatformConfig(fullEnv);
  const shared = buildSharedPorts({ platform, databaseUrl: database.url, logger: createLogger('test', 'silent'), caller: 'data' });
  const apis = new FakeInternalApis();
  const prepared = await prepareService(dataService, { ...shared, services: apis, baseAccess: new BaseAccess(roleLookupOf(apis)) }, fullEnv);
  const workers: Worker[] = await prepared.start();
  const events: EventMessage[] = [];
  const sub = await shared.bus.subscribe({ group: 'test-records', topics: ['records'], handler: async (m) => { events.push(m); } });
  const server = http.createServer(prepared.app.callback());
  return {
    server, database, apis, shared, events, ports: prepared.ports,
    as: (p) => ({ 'x-tabula-identity': signIdentity({ kind: 'user', roles: [], ...p }, INTERNAL) }),
    async stop() {
      await sub.close();
      await stopWorkers(workers, () => undefined);
      await shared.close();
      await database.drop();
    },
  };
}
