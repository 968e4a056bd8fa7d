import type Koa from 'koa';
import { standardServiceApp, type CommonPorts } from '@tabula/runtime';
import type { HooksConfig } from './config';

/** What the hooks service is handed at start-up. */
export interface HooksPorts extends CommonPorts {
  config: HooksConfig;
}

/** Builds the hooks service app; its endpoints arrive with the service's own issue. */
export function createApp(ports: HooksPorts): Koa {
  return standardServiceApp(ports, { routers: [] });
}
