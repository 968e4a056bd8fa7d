import type Koa from 'koa';
import { standardServiceApp, type CommonPorts } from '@tabula/runtime';
import type { MetaConfig } from './config';

/** What the meta service is handed at start-up. */
export interface MetaPorts extends CommonPorts {
  config: MetaConfig;
}

/** Builds the meta service app; its endpoints arrive with the service's own issue. */
export function createApp(ports: MetaPorts): Koa {
  return standardServiceApp(ports, { routers: [] });
}
