import type { RequestListener } from 'node:http';
import type Koa from 'koa';
import type { Knex } from 'knex';
import type { z } from 'zod';
import type { Migration } from '@tabula/db';
import type { EventBus } from '@tabula/events';
import type { RequestHandler, ServiceClient, ServiceName, UpgradeHandler } from '@tabula/http';
import type { Logger, ServiceMetrics } from '@tabula/telemetry';
import type { BaseAccess } from '@tabula/auth';
import type { PlatformConfig } from './platform-config';

/** What the platform hands every service at start-up, whatever the run mode. */
export interface CommonPorts {
  service: ServiceName;
  platform: PlatformConfig;
  logger: Logger;
  metrics: ServiceMetrics;
  /** The metadata database; the service touches only its own schema. */
  db: Knex;
  /** The database holding default sources' user tables (may be `db`). */
  dataDb: Knex;
  bus: EventBus;
  services: ServiceClient;
  baseAccess: BaseAccess;
  /** Verifies identities the gateway forwards. */
  internalSecret: string;
  /** Signs and verifies user JWTs. */
  jwtSecret: string;
  /** Standalone only: the in-process handler of a service (the gateway dispatches to it). */
  localHandler?: (service: ServiceName) => RequestHandler | undefined;
  /** Standalone only: the in-process Upgrade handler of a service (the gateway hands WebSockets to it). */
  localUpgrade?: (service: ServiceName) => UpgradeHandler | undefined;
}

/** Something running in the background (consumer, relay, scheduler) to stop on shutdown. */
export interface Worker {
  /** Shutdown, before any worker stops: hand on what is pending (an outbox relay publishes its backlog). */
  drain?(): Promise<unknown>;
  stop(): Promise<void>;
}

/**
 * A service as the runtime sees it: its schema and migrations, its own config
 * schema, how to build its ports, its Koa app and its background workers.
 */
export interface ServiceDefinition<C = unknown, P extends CommonPorts = CommonPorts> {
  name: ServiceName;
  /** Own PostgreSQL schema (none for the gateway). */
  schema?: string;
  migrations?: Migration[];
  configSchema?: z.ZodType<C>;
  buildPorts(common: CommonPorts, config: C): Promise<P> | P;
  createApp(ports: P): Koa;
  /** The HTTP handler serving the app (default `app.callback()`): a service may put a direct path in front of its Koa app. */
  requestHandler?(app: Koa, ports: P): RequestListener;
  /** The server's `upgrade` listener (WebSockets: contracts with `transport: 'websocket'`); none: Upgrade requests are refused. */
  upgradeHandler?(app: Koa, ports: P): UpgradeHandler;
  start?(ports: P): Promise<Worker[]>;
}

/** Identity helper so definitions keep their generic types. */
export function defineService<C, P extends CommonPorts>(definition: ServiceDefinition<C, P>): ServiceDefinition<C, P> {
  return definition;
}
