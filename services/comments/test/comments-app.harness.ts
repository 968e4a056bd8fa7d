import os from 'node:os';
import path from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import Koa from 'koa';
import Router from '@koa/router';
import { BaseAccess, identityMiddleware, servicePrincipal, signIdentity, type Principal } from '@tabula/auth';
import { dataInternalEndpoints, metaInternalEndpoints } from '@tabula/contracts';
import { appError, errorMiddleware, LocalServiceClient, route } from '@tabula/http';
import { loadConfig } from '@tabula/config';
import { runMigrations } from '@tabula/db';
import { buildSharedPorts, loadPlatformConfig, roleLookupOf } from '@tabula/runtime';
import { createLogger, createServiceMetrics } from '@tabula/telemetry';
import { createTestDatabase, type TestDatabase } from '@tabula/testing';
import { buildCommentsPorts } from '../src/service';
import { createApp } from '../src/app';
import { commentsConfigSchema } from '../src/config';
import { COMMENTS_SCHEMA, type CommentsPorts } from '../src/ports';
import { migrations } from '../migrations';

/** The internal secret of the harness (tests forge the gateway's identity header with it). */
export const INTERNAL = 'internal-secret-for-the-comments-service-tests-0123456789';

/** One table the fakes know. */
export interface FakeTable {
  id: string;
  baseId: string;
  sourceId: string;
}

/**
 * Typed in-memory stand-ins for the services comments calls: meta's
 * `tableContext` and data's `readRecord` are served from their contracts
 * (`route()`), auth's membership lookup from a map.
 */
export class FakeWorld {
  readonly tables = new Map<string, FakeTable>();
  readonly records = new Set<string>();
  readonly roles = new Map<string, string>();
  /** Calls the fakes as the service under test does: with a signed service identity (their routes admit services only). */
  readonly client = new LocalServiceClient(() => signIdentity(servicePrincipal('comments'), INTERNAL));

  constructor() {
    this.client.register('meta', this.app((router) => route(router, metaInternalEndpoints.tableContext, (ctx) => {
      const t = this.tables.get(ctx.input.params.tableId);
      if (!t) throw appError('ERR_TABLE_NOT_FOUND', `Table '${ctx.input.params.tableId}' not found`);
      const id = {
        id: 'c1', fk_model_id: t.id, title: 'Id', column_name: 'id', uidt: 'ID', pk: true, pv: false, rqd: true,
        unique: false, ai: true, au: false, system: false, order: 1,
      };
      return {
        base: { id: t.baseId, title: 'B' }, source: { id: t.sourceId, base_id: t.baseId, type: 'pg' as const, is_meta: true },
        table: { id: t.id, base_id: t.baseId, source_id: t.sourceId, table_name: 't', title: 'T', type: 'table' as const, columns: [id], views: [] },
      };
    })));
    this.client.register('data', this.app((router) => route(router, dataInternalEndpoints.readRecord, (ctx) => {
      const { baseId, tableId, rowId } = ctx.input.params;
      if (!this.records.has(`${tableId}/${rowId}`)) throw appError('ERR_RECORD_NOT_FOUND', `Record '${rowId}' not found`);
      return { base_id: baseId, table_id: tableId, row_id: rowId };
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

/** The comments service alone on a fresh database, with fakes around it. */
export interface CommentsHarness {
  app: Koa;
  /** The service's ports (consumers and use cases can be driven directly). */
  ports: CommentsPorts;
  world: FakeWorld;
  database: TestDatabase;
  shared: ReturnType<typeof buildSharedPorts>;
  /** The gateway's identity header for a user. */
  as(principal: Partial<Principal> & { id: string }): Record<string, string>;
  stop(): Promise<void>;
}

/** Starts the comments app alone (migrated, no background workers: nothing but requests touches the pool). */
export async function startCommentsHarness(): Promise<CommentsHarness> {
  const database = await createTestDatabase();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tabula-comments-'));
  const env = {
    TABULA_MODE: 'standalone', DATABASE_URL: database.url, SVC_INTERNAL_SECRET: INTERNAL, SVC_JWT_SECRET: 'jwt-secret-0123456789',
    EVENT_BUS: 'memory', LOG_LEVEL: 'silent', DATA_DIR: dataDir,
  } as NodeJS.ProcessEnv;
  const platform = loadPlatformConfig(env);
  const shared = buildSharedPorts({ platform, databaseUrl: database.url, logger: createLogger('test', 'silent'), caller: 'comments' });
  const world = new FakeWorld();
  await runMigrations(shared.db, COMMENTS_SCHEMA, migrations);
  const ports = buildCommentsPorts({
    ...shared, services: world.client, baseAccess: new BaseAccess(roleLookupOf(world.client)),
    service: 'comments', logger: createLogger('comments', 'silent'), metrics: createServiceMetrics('comments'),
  }, loadConfig(commentsConfigSchema, env));
  return {
    app: createApp(ports), ports, world, database, shared,
    as: (p) => ({ 'x-tabula-identity': signIdentity({ kind: 'user', roles: ['org-level-viewer'], ...p }, INTERNAL) }),
    async stop() {
      await shared.close();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
