import { defineService } from '@tabula/runtime';
import { storageConfigSchema, type StorageConfig } from './config';
import { createApp, type StoragePorts } from './app';
import { migrations } from '../migrations';

/** The storage service (ARCHITECTURE.md "Services"). */
export const storageService = defineService<StorageConfig, StoragePorts>({
  name: 'storage',
  schema: 'storage',
  migrations,
  configSchema: storageConfigSchema,
  buildPorts: (common, config) => ({ ...common, config }),
  createApp,
});
