import os from 'node:os';
import path from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import Koa from 'koa';
import Router from '@koa/router';
import { BaseAccess, identityMiddleware, servicePrincipal, signIdentity, type Principal } from '@tabula/auth';
import { metaInternalEndpoints } from '@tabula/contracts';
import { appError, LocalServiceClient, errorMiddleware, route } from '@tabula/http';
import { loadConfig } from '@tabula/config';
import { runMigrations } from '@tabula/db';
import { buildSharedPorts, loadPlatformConfig, roleLookupOf } from '@tabula/runtime';
import { createLogger, createServiceMetrics } from '@tabula/telemetry';
import { createTestDatabase, type TestDatabase } from '@tabula/testing';
import { buildHooksPorts } from '../src/service';
import { createApp } from '../src/app';
import { hooksConfigSchema } from '../src/config';
import type { HooksPorts } from '../src/ports';
import { HOOKS_SCHEMA } from '../src/repositories/hooks-db';
import { migrations } from '../migrations';

/** The internal secret of the harness (tests forge the gateway's identity header with it). */
export const INTERNAL = 'internal-secret-for-the-hooks-service-tests-0123456789';

/** One table the fake meta service knows: an `id` primary key and a `title` text column. */
export interface FakeTable {
  id: string;
  baseId: string;
}

const column = (tableId: string, id: string, title: string, uidt: string, pk: boolean, order: number) => ({
  id, fk_model_id: tableId, title, column_name: title.toLowerCase(), uidt, dt: null, pk, pv: !pk, rqd: pk, unique: pk, ai: pk, au: false,
  cdf: null, system: false, meta: null, order, description: null,
});

/** The table context meta would answer for a fake table. */
export function contextOf(t: FakeTable) {
  return {
    base: { id: t.baseId, title: 'B' },
    source: { id: `src${t.baseId}`, base_id: t.baseId, type: 'pg' as const, is_meta: true },
    table: {
      id: t.id, base_id: t.baseId, source_id: `src${t.baseId}`, table_name: `t_${t.id}`, title: 'T', type: 'table' as const, views: [],
      columns: [column(t.id, `${t.id}_c1`, 'Id', 'ID', true, 1), column(t.id, `${t.id}_c2`, 'Title', 'SingleLineText', false, 2)],
    },
  };
}

/**
 * Typed in-memory stand-ins for the services hooks calls: meta's
 * `tableContext` is served from its contract (`route()`), auth's membership
 * lookup from a map.
 */
export class FakeWorld {
  readonly tables = new Map<string, FakeTable>();
  readonly roles = new Map<string, string>();
  /** Calls the fakes as the service under test does: with a signed service identity (their routes admit services only). */
  readonly client = new LocalServiceClient(() => signIdentity(servicePrincipal('hooks'), INTERNAL));

  constructor() {
    this.client.register('meta', this.app((router) => route(router, metaInternalEndpoints.tableContext, (ctx) => {
      const t = this.tables.get(ctx.input.params.tableId);
      if (!t) throw appError('ERR_TABLE_NOT_FOUND', `Table '${ctx.input.params.tableId}' not found`);
      return contextOf(t);
    })));
    this.client.register('auth', this.app((router) => router.get('/internal/bases/:baseId/members/:userId', (ctx) => {
      const role = this.roles.get(`${ctx.params.baseId}:${ctx.params.userId}`);
      ctx.status = role ? 200 : 404;
      ctx.body = role ? { role } : {};
    })));
  }

  private app(build: (router: Router) => unknown): ReturnType<Koa['callback']> {
    const router = new Router();
    build(router);
    const koa = new Koa();
    koa.use(errorMiddleware({ error: () => undefined, warn: () => undefined }));
    koa.use(identityMiddleware(INTERNAL));
    koa.use(router.routes());
    return koa.callback();
  }
}

/** The hooks service alone on a fresh database, with fakes around it. */
export interface HooksHarness {
  app: Koa;
  /** The service's ports (use cases and repositories can be driven directly). */
  ports: HooksPorts;
  world: FakeWorld;
  database: TestDatabase;
  /** The gateway's identity header for a user. */
  as(principal: Partial<Principal> & { id: string }): Record<string, string>;
  stop(): Promise<void>;
}

/** Starts the hooks app alone (migrated; no delivery worker, no consumer: nothing but requests touches the pool). */
export async function startHooksHarness(): Promise<HooksHarness> {
  const database = await createTestDatabase();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tabula-hooks-'));
  const env = {
    TABULA_MODE: 'standalone', DATABASE_URL: database.url, SVC_INTERNAL_SECRET: INTERNAL, SVC_JWT_SECRET: 'jwt-secret-0123456789',
    EVENT_BUS: 'memory', LOG_LEVEL: 'silent', DATA_DIR: dataDir,
  } as NodeJS.ProcessEnv;
  const platform = loadPlatformConfig(env);
  const shared = buildSharedPorts({ platform, databaseUrl: database.url, logger: createLogger('test', 'silent'), caller: 'hooks' });
  const world = new FakeWorld();
  await runMigrations(shared.db, HOOKS_SCHEMA, migrations);
  const ports = buildHooksPorts({
    ...shared, services: world.client, baseAccess: new BaseAccess(roleLookupOf(world.client)),
    service: 'hooks', logger: createLogger('hooks', 'silent'), metrics: createServiceMetrics('hooks'),
  }, loadConfig(hooksConfigSchema, env));
  return {
    app: createApp(ports), ports, world, database,
    as: (p) => ({ 'x-tabula-identity': signIdentity({ kind: 'user', roles: ['org-level-viewer'], ...p }, INTERNAL) }),
    async stop() {
      await ports.agent.close();
      await shared.close();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
