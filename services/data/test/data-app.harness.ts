import http from 'node:http';
import type { Server } from 'node:http';
import { BaseAccess, signIdentity, type Principal } from '@tabula/auth';
import type { ServiceClient, ServiceRequest, ServiceResponse } from '@tabula/http';
import type { TableContext } from '@tabula/contracts';
import type { EventMessage } from '@tabula/events';
import { buildSharedPorts, loadPlatformConfig, prepareService, stopWorkers, type Worker } from '@tabula/runtime';
import { createLogger } from '@tabula/telemetry';
import { createTestDatabase, type TestDatabase } from '@tabula/testing';
import { dataService } from '../src/service';

const INTERNAL = 'internal-secret-for-the-data-service-tests-0123456789';

/**
 * Stands in for the meta and auth services' internal APIs (this test must not
 * import other services): table contexts and base roles registered by the test.
 */
export class FakeInternalApis implements ServiceClient {
  readonly tables = new Map<string, TableContext>();
  readonly roles = new Map<string, string>();
  metaCalls = 0;
  /** Calls to storage's internal attachment API. */
  readonly storageCalls: ServiceRequest[] = [];
  /** When set, storage's sign answers `dltemp/test-<n>` links instead of none. */
  signLinks = false;

  async request<T>(service: string, req: ServiceRequest): Promise<ServiceResponse<T>> {
    const table = /^\/internal\/bases\/([^/]+)\/tables\/([^/]+)$/.exec(req.path);
    if (service === 'meta' && table) {
      this.metaCalls += 1;
      const [baseRef, tableRef] = [decodeURIComponent(table[1]), decodeURIComponent(table[2])];
      const ctx = [...this.tables.values()].find((c) => [c.base.id, c.base.title].includes(baseRef)
        && [c.table.id, c.table.title, c.table.table_name].includes(tableRef));
      return (ctx ? { status: 200, body: ctx } : { status: 404, body: { error: 'ERR_TABLE_NOT_FOUND', message: `Table '${tableRef}' not found` } }) as ServiceResponse<T>;
    }
    const byId = /^\/internal\/tables\/([^/]+)$/.exec(req.path);
    if (service === 'meta' && byId) {
      const ctx = [...this.tables.values()].find((c) => c.table.id === decodeURIComponent(byId[1]));
      return (ctx ? { status: 200, body: ctx } : { status: 404, body: { error: 'ERR_TABLE_NOT_FOUND', message: 'Table not found' } }) as ServiceResponse<T>;
    }
    const candidates = /^\/internal\/bases\/([^/]+)\/candidates$/.exec(req.path);
    if (service === 'meta' && candidates) {
      const ref = decodeURIComponent(candidates[1]);
      const bases = [...new Map([...this.tables.values()].map((c) => [c.base.id, c.base])).values()];
      const byId = bases.find((b) => b.id === ref)?.id;
      return { status: 200, body: { byId, byTitle: byId ? [] : bases.filter((b) => b.title === ref).map((b) => b.id) } as T };
    }
    const member = /^\/internal\/bases\/([^/]+)\/members\/([^/]+)$/.exec(req.path);
    if (service === 'auth' && member) {
      const role = this.roles.get(`${member[1]}:${member[2]}`);
      return (role ? { status: 200, body: { role } } : { status: 404, body: {} }) as ServiceResponse<T>;
    }
    if (service === 'storage') return this.storage<T>(req);
    return { status: 404, body: {} as T };
  }

  /** Storage's internal attachment API: every attachment counts as issued; none gets a signed link. */
  private storage<T>(req: ServiceRequest): ServiceResponse<T> {
    this.storageCalls.push(req);
    const items = ((req.body ?? {}) as { items?: unknown[] }).items ?? [];
    if (req.path === '/internal/attachments/claim') return { status: 200, body: { unknown: [] } as T };
    if (req.path === '/internal/attachments/sign') {
      return { status: 200, body: { links: items.map((_, i) => (this.signLinks ? { signedPath: `dltemp/test-${i}` } : null)) } as T };
    }
    return { status: 404, body: {} as T };
  }
}

/** A running data service on a fresh database, with the memory bus's records events collected. */
export interface DataHarness {
  server: Server;
  database: TestDatabase;
  apis: FakeInternalApis;
  shared: ReturnType<typeof buildSharedPorts>;
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
  const prepared = await prepareService(dataService, { ...shared, services: apis, baseAccess: new BaseAccess(apis) }, fullEnv);
  const workers: Worker[] = await prepared.start();
  const events: EventMessage[] = [];
  const sub = await shared.bus.subscribe({ group: 'test-records', topics: ['records'], handler: async (m) => { events.push(m); } });
  const server = http.createServer(prepared.app.callback());
  return {
    server, database, apis, shared, events,
    as: (p) => ({ 'x-tabula-identity': signIdentity({ kind: 'user', roles: [], ...p }, INTERNAL) }),
    async stop() {
      await sub.close();
      await stopWorkers(workers, () => undefined);
      await shared.close();
      await database.drop();
    },
  };
}
