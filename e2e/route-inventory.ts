import type Koa from 'koa';
import type Router from '@koa/router';
import { allEndpoints, SERVICE_NAMES, type AnyEndpoint } from '@tabula/contracts';
import { buildSharedPorts, loadPlatformConfig, prepareService, type ServiceDefinition } from '@tabula/runtime';
import { createLogger } from '@tabula/telemetry';
import { createTestDatabase } from '@tabula/testing';

/** One route a service's routers serve, in OpenAPI form (`GET /api/v1/x/{id}`). */
export interface ServedRoute {
  service: string;
  key: string;
}

/** `:param` and wildcard `{*param}` → `{param}` (the router's form back to the contract's). */
const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\{\*([A-Za-z0-9_]+)\}/g, '{$1}');

/** Every (method, path) registered on the routers of a Koa app (walks `router.routes()` middleware). */
export function routesOf(service: string, app: Koa): ServedRoute[] {
  const out: ServedRoute[] = [];
  for (const mw of app.middleware as Array<{ router?: Router }>) {
    for (const layer of mw.router?.stack ?? []) {
      for (const method of layer.methods.filter((m) => m !== 'HEAD')) out.push({ service, key: `${method} ${openApiPath(String(layer.path))}` });
    }
  }
  return out;
}

/** Builds every service's app on a fresh database (migrations applied, nothing started) and lists its routes. */
export async function servedRoutes(definitions: ServiceDefinition<any, any>[]): Promise<ServedRoute[]> {
  const database = await createTestDatabase();
  // No Redis or Kafka: nothing is started, and a connected client would keep the test process alive.
  const { REDIS_URL: _redis, KAFKA_BROKERS: _kafka, ...rest } = process.env;
  const env = { ...rest, TABULA_MODE: 'standalone', DATABASE_URL: database.url, EVENT_BUS: 'memory', LOG_LEVEL: 'silent', DATA_DIR: '/tmp' };
  const platform = loadPlatformConfig(env);
  const shared = buildSharedPorts({ platform, databaseUrl: database.url, logger: createLogger('test', 'silent'), caller: 'gateway' });
  try {
    const routes: ServedRoute[] = [];
    for (const definition of definitions) routes.push(...routesOf(definition.name, (await prepareService(definition, shared, env)).app));
    return routes;
  } finally {
    await shared.close();
    await database.drop();
  }
}

/** `METHOD /path` of a contract. */
export const keyOf = (e: AnyEndpoint) => `${e.method} ${e.path}`;

/** Every contract, by `METHOD /path`, with the service that must serve it. */
export function contractRoutes(): Map<string, AnyEndpoint> {
  return new Map(allEndpoints().filter((e) => SERVICE_NAMES.includes(e.service)).map((e) => [keyOf(e), e]));
}
