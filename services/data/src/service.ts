import { defineService } from '@tabula/runtime';
import { dataConfigSchema, type DataConfig } from './config';
import { createApp, type DataPorts } from './app';
import { migrations } from '../migrations';

/** The data service (ARCHITECTURE.md "Services"). */
export const dataService = defineService<DataConfig, DataPorts>({
  name: 'data',
  schema: 'data',
  migrations,
  configSchema: dataConfigSchema,
  buildPorts: (common, config) => ({ ...common, config }),
  createApp,
});
