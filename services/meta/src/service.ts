import { defineService } from '@tabula/runtime';
import { metaConfigSchema, type MetaConfig } from './config';
import { createApp, type MetaPorts } from './app';
import { migrations } from '../migrations';

/** The meta service (ARCHITECTURE.md "Services"). */
export const metaService = defineService<MetaConfig, MetaPorts>({
  name: 'meta',
  schema: 'meta',
  migrations,
  configSchema: metaConfigSchema,
  buildPorts: (common, config) => ({ ...common, config }),
  createApp,
});
