import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { enqueueEvent } from '@tabula/events';
import { isLinkUidt, isThroughLinkUidt } from '@tabula/query';
import {
  BaseChangedSchema, ChangeAction, ColumnChangedSchema, TableChangedSchema, ViewChangedSchema,
  encodeEvent, timestampNow, topics, type ColumnRelation,
} from '@tabula/contracts';
import type { Principal } from '@tabula/auth';
import { META_SCHEMA } from '../repositories/meta-db';

/** What changed. */
export type MetaAction = 'created' | 'updated' | 'deleted';

const ACTIONS: Record<MetaAction, ChangeAction> = {
  created: ChangeAction.CREATED, updated: ChangeAction.UPDATED, deleted: ChangeAction.DELETED,
};

function actorOf(principal?: Principal) {
  if (principal?.kind !== 'user') return undefined;
  return { id: principal.id, email: principal.email ?? '', tokenId: principal.via === 'api-token' ? principal.tokenId ?? '' : '' };
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

/** What a column event says about a column. */
export interface ColumnEventSubject {
  id: string;
  base_id: string;
  fk_model_id: string;
  title: string;
  uidt?: string;
  col_options?: Record<string, unknown> | null;
}

const text = (v: unknown) => (typeof v === 'string' ? v : '');

/**
 * The relation metadata of a link, lookup or rollup column (undefined for
 * others). A lookup/rollup names its related table through its link column,
 * read in the same transaction.
 */
async function relationOf(trx: Knex, column: ColumnEventSubject): Promise<Omit<Partial<ColumnRelation>, '$typeName'> | undefined> {
  const o = column.col_options ?? {};
  if (column.uidt && isLinkUidt(column.uidt)) {
    return {
      type: text(o.type), relatedTableId: text(o.fk_related_model_id), childColumnId: text(o.fk_child_column_id),
      parentColumnId: text(o.fk_parent_column_id), mmTableId: text(o.fk_mm_model_id),
      mmChildColumnId: text(o.fk_mm_child_column_id), mmParentColumnId: text(o.fk_mm_parent_column_id),
    };
  }
  if (!column.uidt || !isThroughLinkUidt(column.uidt)) return undefined;
  const relationColumnId = text(o.fk_relation_column_id);
  const link = relationColumnId
    ? await trx.withSchema(META_SCHEMA).from('columns').where({ id: relationColumnId }).first('col_options') as { col_options?: Record<string, unknown> | null } | undefined
    : undefined;
  const linkOptions = link?.col_options ?? {};
  return {
    type: text(linkOptions.type), relatedTableId: text(linkOptions.fk_related_model_id), mmTableId: text(linkOptions.fk_mm_model_id),
    relationColumnId, lookupColumnId: text(o.fk_lookup_column_id), rollupColumnId: text(o.fk_rollup_column_id), rollupFunction: text(o.rollup_function),
  };
}

/**
 * Enqueues `meta.column.<action>` (key: table id, so it orders with the
 * table's events), with the relation metadata of link, lookup and rollup columns.
 */
export async function enqueueColumnEvent(trx: Knex, action: MetaAction, column: ColumnEventSubject, principal?: Principal): Promise<void> {
  const relation = await relationOf(trx, column);
  const payload = encodeEvent(ColumnChangedSchema, {
    eventId: randomUUID(), action: ACTIONS[action], baseId: column.base_id, tableId: column.fk_model_id,
    columnId: column.id, columnTitle: column.title, uidt: column.uidt ?? '', user: actorOf(principal), occurredAt: timestampNow(),
    ...(relation ? { relation } : {}),
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
