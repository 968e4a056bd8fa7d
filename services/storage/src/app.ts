import type Koa from 'koa';
import { standardServiceApp, type CommonPorts } from '@tabula/runtime';
import type { StorageConfig } from './config';

/** What the storage service is handed at start-up. */
export interface StoragePorts extends CommonPorts {
  config: StorageConfig;
}

/** Builds the storage service app; its endpoints arrive with the service's own issue. */
export function createApp(ports: StoragePorts): Koa {
  return standardServiceApp(ports, { routers: [] });
}
