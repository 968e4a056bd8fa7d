import type Koa from 'koa';
import { standardServiceApp, type CommonPorts } from '@tabula/runtime';
import type { IntegrationsConfig } from './config';

/** What the integrations service is handed at start-up. */
export interface IntegrationsPorts extends CommonPorts {
  config: IntegrationsConfig;
}

/** Builds the integrations service app; its endpoints arrive with the service's own issue. */
export function createApp(ports: IntegrationsPorts): Koa {
  return standardServiceApp(ports, { routers: [] });
}
