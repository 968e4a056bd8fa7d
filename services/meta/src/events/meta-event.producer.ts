import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { enqueueEvent } from '@tabula/events';
import {
  BaseChangedSchema, ChangeAction, ColumnChangedSchema, TableChangedSchema, ViewChangedSchema,
  encodeEvent, timestampNow, topics,
} from '@tabula/contracts';
import type { Principal } from '@tabula/auth';
import { META_SCHEMA } from '../repositories/meta-db';

/** What changed. */
export type MetaAction = 'created' | 'updated' | 'deleted';

const ACTIONS: Record<MetaAction, ChangeAction> = {
  created: ChangeAction.CREATED, updated: ChangeAction.UPDATED, deleted: ChangeAction.DELETED,
};

function actorOf(principal?: Principal) {
  return principal?.kind === 'user' ? { id: principal.id, email: principal.email ?? '' } : undefined;
}

/** Enqueues `meta.base.<action>` (key: base id) in the caller's transaction. */
export async function enqueueBaseEvent(trx: Knex, action: MetaAction, base: { id: string; title: string }, principal?: Principal): Promise<void> {
  const payload = encodeEvent(BaseChangedSchema, {
    eventId: randomUUID(), action: ACTIONS[action], baseId: base.id, baseTitle: base.title, user: actorOf(principal), occurredAt: timestampNow(),
  });
  await enqueueEvent(trx, META_SCHEMA, { topic: topics.meta, key: base.id, type: `meta.base.${action}`, payload });
}

/** Enqueues `meta.table.<action>` (key: table id). */
export async function enqueueTableEvent(
  trx: Knex, action: MetaAction, table: { id: string; base_id: string; source_id: string; title: string }, principal?: Principal,
): Promise<void> {
  const payload = encodeEvent(TableChangedSchema, {
    eventId: randomUUID(), action: ACTIONS[action], baseId: table.base_id, sourceId: table.source_id,
    tableId: table.id, tableTitle: table.title, user: actorOf(principal), occurredAt: timestampNow(),
  });
  await enqueueEvent(trx, META_SCHEMA, { topic: topics.meta, key: table.id, type: `meta.table.${action}`, payload });
}

/** Enqueues `meta.column.<action>` (key: table id, so it orders with the table's events). */
export async function enqueueColumnEvent(
  trx: Knex, action: MetaAction, column: { id: string; base_id: string; fk_model_id: string; title: string }, principal?: Principal,
): Promise<void> {
  const payload = encodeEvent(ColumnChangedSchema, {
    eventId: randomUUID(), action: ACTIONS[action], baseId: column.base_id, tableId: column.fk_model_id,
    columnId: column.id, columnTitle: column.title, user: actorOf(principal), occurredAt: timestampNow(),
  });
  await enqueueEvent(trx, META_SCHEMA, { topic: topics.meta, key: column.fk_model_id, type: `meta.column.${action}`, payload });
}

/** Enqueues `meta.view.<action>` (also for a view's sorts, filters and columns). */
export async function enqueueViewEvent(
  trx: Knex, action: MetaAction, view: { id: string; base_id: string; fk_model_id: string; title: string }, principal?: Principal,
): Promise<void> {
  const payload = encodeEvent(ViewChangedSchema, {
    eventId: randomUUID(), action: ACTIONS[action], baseId: view.base_id, tableId: view.fk_model_id,
    viewId: view.id, viewTitle: view.title, user: actorOf(principal), occurredAt: timestampNow(),
  });
  await enqueueEvent(trx, META_SCHEMA, { topic: topics.meta, key: view.fk_model_id, type: `meta.view.${action}`, payload });
}
