import { withOutbox } from '@tabula/events';
import type { Knex } from 'knex';
import { errors } from '@tabula/http';
import type { Principal } from '@tabula/auth';
import type { EndpointInput, integrationCreate } from '@tabula/contracts';
import type { IntegrationsPorts } from '../ports';
import { clearDefault, findIntegration, insertIntegration, type IntegrationRow } from '../repositories/integration.repository';
import { requireSubType, validateConfig } from '../registry/type-registry';
import { mergeConfig, inheritedSecrets } from './config-paths';
import { newId } from '@tabula/db';
import { enqueueIntegrationEvent } from '../events/integration-event.producer';
import { presentIntegration } from '../presenters/integration.presenter';
import { assertMayKeepSecrets, canSee } from './integration-access';
import { definitionOf, openConfig } from './load-integration';

type CreateBody = EndpointInput<typeof integrationCreate>['body'];

/** The config to start from: `copy_from_id`'s (same type, visible to the caller) merged with the given one. */
async function startingConfig(ports: IntegrationsPorts, principal: Principal, body: CreateBody): Promise<Record<string, unknown>> {
  if (!body.copy_from_id) return body.config ?? {};
  const source = await findIntegration(ports.db, body.copy_from_id);
  if (!source || !canSee(source, principal)) throw errors.badRequest(`copy_from_id: integration '${body.copy_from_id}' not found`);
  if (source.type !== body.type || source.sub_type !== body.sub_type) {
    throw errors.badRequest(`copy_from_id: integration '${body.copy_from_id}' is a ${source.type}/${source.sub_type}, not ${body.type}/${body.sub_type}`);
  }
  const stored = openConfig(ports, source);
  const merged = mergeConfig(stored, body.config ?? {});
  // A copy made by anyone but the source's creator must bring its own secrets (they see them masked).
  assertMayKeepSecrets(source, principal, inheritedSecrets(stored, body.config ?? {}, merged, definitionOf(source).secret_fields));
  return merged;
}

/** Makes `row` its type's only default (same transaction). */
export async function takeDefault(trx: Knex, row: Pick<IntegrationRow, 'id' | 'type'>): Promise<void> {
  await clearDefault(trx, row.type, row.id);
}

/** Creates an integration; its config is validated against the sub-type schema and sealed. */
export async function createIntegration(ports: IntegrationsPorts, principal: Principal, body: CreateBody) {
  const definition = requireSubType(body.type, body.sub_type);
  const config = validateConfig(definition, await startingConfig(ports, principal, body));
  const row: Omit<IntegrationRow, 'created_at' | 'updated_at'> = {
    id: newId('int'), title: body.title, type: body.type, sub_type: body.sub_type, enabled: body.enabled ?? true,
    is_private: body.is_private ?? false, is_default: body.is_default ?? false, created_by: principal.id, fk_workspace_id: null,
    config_sealed: ports.ring.seal(config), meta: body.meta ?? null,
  };
  await withOutbox(ports.db, ports.relay, async (trx) => {
    if (row.is_default) await takeDefault(trx, row);
    await insertIntegration(trx, row);
    await enqueueIntegrationEvent(trx, 'created', row, principal);
  });
  const stored = (await findIntegration(ports.db, row.id))!;
  return presentIntegration(stored);
}
