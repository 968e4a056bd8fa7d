import type { ColumnInfo } from '@tabula/contracts';
import type { ColumnRow } from '../repositories/column.repository';

function numberish(v: string | null): string | number | null {
  if (v === null || v === '') return v;
  return /^-?\d+$/.test(v) ? Number(v) : v;
}

/** Column row → the spec's Column (and the internal ColumnInfo). */
export function presentColumn(row: ColumnRow): ColumnInfo & { base_id: string; created_at?: Date; updated_at?: Date } {
  const options = row.col_options?.options;
  return {
    id: row.id, base_id: row.base_id, fk_model_id: row.fk_model_id, title: row.title, column_name: row.column_name ?? '',
    uidt: row.uidt, dt: row.dt, dtxp: numberish(row.dtxp), dtxs: numberish(row.dtxs),
    pk: row.pk, pv: row.pv, rqd: row.rqd, unique: row.unique, ai: row.ai, au: row.au, cdf: row.cdf, system: row.system,
    meta: row.meta ?? {}, order: Number(row.order), description: row.description,
    colOptions: options ? { options: [...options].sort((a, b) => a.order - b.order) }
      : row.col_options ? { ...row.col_options } : undefined,
    created_at: row.created_at, updated_at: row.updated_at,
  };
}
