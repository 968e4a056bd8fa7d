import type { BaseRow } from '../repositories/base.repository';
import type { SourceRow } from '../repositories/source.repository';

/** Source row → public source entry: never its config (compat-notes "Base info"). */
export function presentSource(row: SourceRow) {
  return {
    id: row.id, base_id: row.base_id, alias: row.alias, type: row.type, is_meta: row.is_meta, is_local: row.is_meta,
    enabled: row.enabled, order: Number(row.order), meta: row.meta ?? {}, created_at: row.created_at, updated_at: row.updated_at,
  };
}

/** Base row → the spec's Base. */
export function presentBase(row: BaseRow, sources: SourceRow[] = []) {
  return {
    id: row.id, title: row.title, description: row.description ?? '', color: row.color, meta: row.meta ?? {},
    order: row.order === null ? null : Number(row.order), status: null, deleted: row.deleted,
    created_at: row.created_at, updated_at: row.updated_at, sources: sources.map(presentSource),
  };
}
