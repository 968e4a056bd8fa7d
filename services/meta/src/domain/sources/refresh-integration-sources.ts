import { withOutbox } from '@tabula/events';
import { AppError } from '@tabula/http';
import type { MetaPorts } from '../../ports';
import { findBase } from '../../repositories/base.repository';
import { sourcesOfIntegration, detachIntegration, updateSourceConfig } from '../../repositories/source.repository';
import { enqueueBaseEvent } from '../../events/meta-event.producer';
import { connectionOf, pgSchemaOf } from '../../sources/external-config';

/**
 * Re-seals the integration's current config into every source built on it and
 * announces `meta.base.updated` per base, so the data service drops its cached
 * context (and with it the stale pool). Idempotent: it always applies the
 * latest config, whatever event triggered it.
 */
export async function refreshIntegrationSources(ports: MetaPorts, integrationId: string): Promise<number> {
  const sources = await sourcesOfIntegration(ports.db, integrationId);
  if (sources.length === 0) return 0;
  const integration = await ports.clients.integrations.integrationConfigInternal({ params: { integrationId } }).catch((err: unknown) => {
    if (err instanceof AppError && err.status === 404) return undefined;
    throw err;
  });
  if (!integration) return 0;
  await withOutbox(ports.db, ports.relay, async (trx) => {
    for (const source of sources) {
      const connection = connectionOf(source.type, integration.config, ports.platform.DATA_DIR);
      const sealed = ports.sources.seal({ connection, schema: source.type === 'pg' ? pgSchemaOf(integration.config) : undefined });
      await updateSourceConfig(trx, source.id, sealed);
    }
    for (const baseId of new Set(sources.map((s) => s.base_id))) {
      const base = await findBase(trx, baseId);
      if (base) await enqueueBaseEvent(trx, 'updated', base);
    }
  });
  for (const source of sources) await ports.sources.release(source.id);
  ports.logger.info({ integrationId, sources: sources.length }, 'sources refreshed from their integration');
  return sources.length;
}

/** The integration is gone: its sources keep their last config and stop following it. */
export async function detachIntegrationSources(ports: MetaPorts, integrationId: string): Promise<void> {
  await detachIntegration(ports.db, integrationId);
}
