import type Koa from 'koa';
import { standardServiceApp, type CommonPorts } from '@tabula/runtime';
import type { AuthConfig } from './config';

/** What the auth service is handed at start-up. */
export interface AuthPorts extends CommonPorts {
  config: AuthConfig;
}

/** Builds the auth service app; its endpoints arrive with the service's own issue. */
export function createApp(ports: AuthPorts): Koa {
  return standardServiceApp(ports, { routers: [] });
}
