import { SecretBox, defineService, keyMaterial, type CommonPorts } from '@tabula/runtime';
import { hooksConfigSchema, type HooksConfig } from './config';
import { createApp } from './app';
import type { HooksPorts } from './ports';
import { migrations } from '../migrations';
import { Wake } from './adapters/wake';
import { createSafeAgent } from '@tabula/http';
import { DeliveryWorker } from './delivery/delivery-worker';
import { startRecordsConsumer } from './events/records.consumer';
import { HOOKS_SCHEMA } from './repositories/hooks-db';

/** What hooks' key seals: hook signing secrets (the derivation is part of the stored data's format). */
export const HOOK_SECRETS_PURPOSE = 'tabula-hook-secrets';

/** Builds the hooks ports from the platform's (also used by tests that build the app by hand). */
export function buildHooksPorts(common: CommonPorts, config: HooksConfig): HooksPorts {
  const material = keyMaterial(common, config.SVC_HOOKS_ENCRYPTION_KEY, 'hooks-encryption-key');
  return { ...common, config, box: new SecretBox(HOOK_SECRETS_PURPOSE, material), dispatcher: createSafeAgent(config.SVC_ALLOW_LOCAL_HOOKS), wake: new Wake() };
}

/** The hooks service (ARCHITECTURE.md "Services"). */
export const hooksService = defineService<HooksConfig, HooksPorts>({
  name: 'hooks',
  schema: HOOKS_SCHEMA,
  migrations,
  configSchema: hooksConfigSchema,
  buildPorts: buildHooksPorts,
  createApp,
  async start(ports) {
    const worker = new DeliveryWorker(ports);
    worker.start();
    const consumer = await startRecordsConsumer(ports);
    return [consumer, worker, { stop: () => ports.dispatcher.close() }];
  },
});
