import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { enqueueEvent } from '@tabula/events';
import { ChangeAction, IntegrationChangedSchema, encodeEvent, timestampNow, topics } from '@tabula/contracts';
import type { Principal } from '@tabula/auth';
import { INTEGRATIONS_SCHEMA, type IntegrationRow } from '../repositories/integration.repository';

/** What happened to an integration. */
export type IntegrationAction = 'created' | 'updated' | 'deleted';

const ACTIONS: Record<IntegrationAction, ChangeAction> = {
  created: ChangeAction.CREATED, updated: ChangeAction.UPDATED, deleted: ChangeAction.DELETED,
};

/** Enqueues `integrations.integration.<action>` (key: integration id) in the caller's transaction; never the config. */
export async function enqueueIntegrationEvent(
  trx: Knex, action: IntegrationAction, row: Pick<IntegrationRow, 'id' | 'type' | 'sub_type' | 'fk_workspace_id'>,
  principal: Principal, configChanged = false,
): Promise<void> {
  const payload = encodeEvent(IntegrationChangedSchema, {
    eventId: randomUUID(), action: ACTIONS[action], integrationId: row.id, workspaceId: row.fk_workspace_id ?? '',
    type: row.type, subType: row.sub_type, configChanged,
    user: principal.kind === 'user' ? { id: principal.id, email: principal.email ?? '' } : undefined, occurredAt: timestampNow(),
  });
  await enqueueEvent(trx, INTEGRATIONS_SCHEMA, { topic: topics.integrations, key: row.id, type: `integrations.integration.${action}`, payload });
}
