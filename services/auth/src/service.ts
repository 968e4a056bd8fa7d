import { defineService } from '@tabula/runtime';
import { authConfigSchema, type AuthConfig } from './config';
import { createApp, type AuthPorts } from './app';
import { migrations } from '../migrations';

/** The auth service (ARCHITECTURE.md "Services"). */
export const authService = defineService<AuthConfig, AuthPorts>({
  name: 'auth',
  schema: 'auth',
  migrations,
  configSchema: authConfigSchema,
  buildPorts: (common, config) => ({ ...common, config }),
  createApp,
});
