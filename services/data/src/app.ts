import type Koa from 'koa';
import { standardServiceApp, type CommonPorts } from '@tabula/runtime';
import type { DataConfig } from './config';

/** What the data service is handed at start-up. */
export interface DataPorts extends CommonPorts {
  config: DataConfig;
}

/** Builds the data service app; its endpoints arrive with the service's own issue. */
export function createApp(ports: DataPorts): Koa {
  return standardServiceApp(ports, { routers: [] });
}
