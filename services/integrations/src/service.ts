import { defineService } from '@tabula/runtime';
import { integrationsConfigSchema, type IntegrationsConfig } from './config';
import { createApp, type IntegrationsPorts } from './app';
import { migrations } from '../migrations';

/** The integrations service (ARCHITECTURE.md "Services"). */
export const integrationsService = defineService<IntegrationsConfig, IntegrationsPorts>({
  name: 'integrations',
  schema: 'integrations',
  migrations,
  configSchema: integrationsConfigSchema,
  buildPorts: (common, config) => ({ ...common, config }),
  createApp,
});
