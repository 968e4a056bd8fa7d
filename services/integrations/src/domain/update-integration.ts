import { withOutbox } from '@tabula/events';
import type { Principal } from '@tabula/auth';
import type { EndpointInput, integrationUpdate } from '@tabula/contracts';
import type { IntegrationsPorts } from '../ports';
import { findIntegration, updateIntegration as updateRow, type IntegrationRow } from '../repositories/integration.repository';
import { validateConfig } from '../registry/type-registry';
import { mergeConfig, inheritedSecrets } from './config-paths';
import { enqueueIntegrationEvent } from '../events/integration-event.producer';
import { presentIntegration } from '../presenters/integration.presenter';
import { assertMayEdit, assertMayKeepSecrets } from './integration-access';
import type { IntegrationInScope } from './integration-scope';
import { definitionOf, openConfig } from './load-integration';
import { takeDefault } from './create-integration';

type UpdateBody = EndpointInput<typeof integrationUpdate>['body'];

/** The columns a PATCH changes; `config` is merged into the stored one and validated again. */
function patchOf(ports: IntegrationsPorts, principal: Principal, row: IntegrationRow, body: UpdateBody): { patch: Partial<IntegrationRow>; configChanged: boolean } {
  const patch: Partial<IntegrationRow> = {};
  if (body.title !== undefined) patch.title = body.title;
  if (body.meta !== undefined) patch.meta = body.meta ?? null;
  for (const flag of ['enabled', 'is_private', 'is_default'] as const) if (body[flag] !== undefined) patch[flag] = body[flag];
  let configChanged = false;
  if (body.config) {
    const stored = openConfig(ports, row);
    const merged = validateConfig(definitionOf(row), mergeConfig(stored, body.config));
    configChanged = JSON.stringify(merged) !== JSON.stringify(stored);
    if (configChanged) assertMayKeepSecrets(row, principal, inheritedSecrets(stored, body.config, merged, definitionOf(row).secret_fields));
    if (configChanged) patch.config_sealed = ports.ring.seal(merged);
  }
  return { patch, configChanged };
}

/** PATCH: title, meta, flags and config (merged). Private integrations only by their creator. */
export async function updateIntegration(ports: IntegrationsPorts, scope: IntegrationInScope, body: UpdateBody) {
  const { value: row, principal } = scope;
  assertMayEdit(row, principal);
  const { patch, configChanged } = patchOf(ports, principal, row, body);
  await withOutbox(ports.db, ports.relay, async (trx) => {
    if (patch.is_default) await takeDefault(trx, row);
    await updateRow(trx, row.id, patch);
    await enqueueIntegrationEvent(trx, 'updated', row, principal, configChanged);
  });
  return presentIntegration((await findIntegration(ports.db, row.id))!);
}
