import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { AtRestRing, defineService, encryptionKeysOf, legacyMaterials, resealOnStart, type CommonPorts } from '@tabula/runtime';
import { hooksConfigSchema, type HooksConfig } from './config';
import { createApp } from './app';
import type { HooksPorts } from './ports';
import { migrations } from '../migrations';
import { Wake } from './adapters/wake';
import { createSafeAgent } from '@tabula/http';
import { DeliveryWorker } from './delivery/delivery-worker';
import { recordsConsumer } from './consumers/records.consumer';
import { HOOKS_SCHEMA } from './repositories/hooks-db';
import { sealedHookSecrets } from './repositories/hook.repository';
import { HookCache } from './cache/hook-cache';
import { HookChangeListener } from './cache/hook-changes';
import { Completions } from './delivery/completions';
import { stageMetrics } from './delivery/stage-metrics';
import { serviceClients } from './adapters/service-clients';

/** What hooks' key seals: hook signing secrets (the derivation is part of the stored data's format). */
export const HOOK_SECRETS_PURPOSE = 'tabula-hook-secrets';

/** Builds the hooks ports from the platform's (also used by tests that build the app by hand). */
export function buildHooksPorts(common: CommonPorts, config: HooksConfig): HooksPorts {
  // Sealed with SVC_ENCRYPTION_KEYS; the former keys only open what was sealed before it (re-sealed at start).
  const legacy = legacyMaterials(common.platform, { configured: config.SVC_HOOKS_ENCRYPTION_KEY ? [config.SVC_HOOKS_ENCRYPTION_KEY] : [], fileName: 'hooks-encryption-key' });
  return {
    ...common, config, workerId: `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`, box: new AtRestRing(HOOK_SECRETS_PURPOSE, encryptionKeysOf(common.platform), legacy), wake: new Wake(),
    agent: createSafeAgent(config.SVC_ALLOW_LOCAL_HOOKS, { connections: config.SVC_HOOKS_CONNECTIONS_PER_TARGET }),
    hookCache: new HookCache(common.db, { maxTables: config.SVC_HOOKS_CACHE_TABLES, ttlMs: config.SVC_HOOKS_CACHE_TTL_MS }),
    completions: new Completions(common.db),
    stages: stageMetrics(common.metrics.registry),
    ...serviceClients(common.services),
  };
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
    await resealOnStart(ports, ports.box, sealedHookSecrets, 'hooks.hooks.secret_sealed');
    const listener = new HookChangeListener(ports.db, ports.hookCache, ports.logger);
    await listener.start();
    const worker = new DeliveryWorker(ports);
    worker.start();
    const consumer = await recordsConsumer.start(ports);
    // workers stop in reverse order: the consumer first (its last batches still hand off), then the sender, the listener, the pool
    return [{ stop: () => ports.agent.close() }, listener, worker, consumer];
  },
});
