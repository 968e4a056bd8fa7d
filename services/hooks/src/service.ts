import { defineService, persistentSecret, type CommonPorts } from '@tabula/runtime';
import { hooksConfigSchema, type HooksConfig } from './config';
import { createApp } from './app';
import type { HooksPorts } from './ports';
import { migrations } from '../migrations';
import { SecretBox } from './lib/secret-box';
import { Wake } from './lib/wake';
import { createSafeAgent } from '@tabula/http';
import { DeliveryWorker } from './delivery/delivery-worker';
import { startRecordsConsumer } from './consumers/records.consumer';
import { HOOKS_SCHEMA } from './repositories/hooks-db';

/** Builds the hooks ports from the platform's (also used by tests that build the app by hand). */
export function buildHooksPorts(common: CommonPorts, config: HooksConfig): HooksPorts {
  // standalone without a configured internal secret generates one per process: keep a key under DATA_DIR instead
  const material = config.SVC_HOOKS_ENCRYPTION_KEY
    ?? (common.platform.SVC_INTERNAL_SECRET ? common.internalSecret : persistentSecret(common.platform.DATA_DIR, 'hooks-encryption-key'));
  return { ...common, config, box: new SecretBox(material), agent: createSafeAgent(config.SVC_ALLOW_LOCAL_HOOKS), wake: new Wake() };
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
    return [consumer, worker, { stop: () => ports.agent.close() }];
  },
});
