import { defineService } from '@tabula/runtime';
import { hooksConfigSchema, type HooksConfig } from './config';
import { createApp, type HooksPorts } from './app';
import { migrations } from '../migrations';

/** The hooks service (ARCHITECTURE.md "Services"). */
export const hooksService = defineService<HooksConfig, HooksPorts>({
  name: 'hooks',
  schema: 'hooks',
  migrations,
  configSchema: hooksConfigSchema,
  buildPorts: (common, config) => ({ ...common, config }),
  createApp,
});
