import type { z } from 'zod';
import type { ColumnFields, ColumnPatch, fieldUpdateV3Body, fieldV3Body } from '@tabula/contracts';

type FieldV3 = z.infer<typeof fieldV3Body>;
type FieldPatchV3 = z.infer<typeof fieldUpdateV3Body>;

/**
 * Display options v3 names apart from v1's column meta (NocoDB 0.301.3's own
 * mapping, its v3 column builder); the other option keys keep their names.
 */
const META_KEYS: Record<string, string> = {
  '12hr_format': 'is12hrFormat', locale_string: 'isLocaleString', rich_text: 'richMode', display_timezone: 'isDisplayTimezone',
  allow_multiple_users: 'is_multi', show_as_progress: 'is_progress', max_value: 'max',
};
/** Currency options are `{ locale, code }` in v3, `currency_locale` / `currency_code` in v1's meta. */
const CURRENCY_KEYS: Record<string, string> = { locale: 'currency_locale', code: 'currency_code' };

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/**
 * What a v3 field's `options` are in a v1 column body: choices of selects,
 * the related table of links, the fields of lookups and rollups, a formula's
 * text, or (the other types) display settings in `meta`.
 */
function optionsAsColumn(type: string, options: Record<string, unknown>, tableId?: string): Partial<ColumnFields> & Record<string, unknown> {
  switch (type) {
    case 'SingleSelect':
    case 'MultiSelect': {
      const choices = Array.isArray(options.choices) ? options.choices as { title: string; color?: string }[] : [];
      return { colOptions: { options: choices.map((c) => ({ title: c?.title, ...(c?.color ? { color: c.color } : {}) })) } };
    }
    case 'Links':
    case 'LinkToAnotherRecord':
      return { ...(tableId ? { parentId: tableId } : {}), childId: str(options.related_table_id), type: str(options.relation_type) };
    case 'Lookup':
      return { fk_relation_column_id: str(options.related_field_id), fk_lookup_column_id: str(options.related_table_lookup_field_id) };
    case 'Rollup':
      return {
        fk_relation_column_id: str(options.related_field_id), fk_rollup_column_id: str(options.related_table_rollup_field_id),
        rollup_function: str(options.rollup_function),
      };
    case 'Formula':
      return { formula_raw: str(options.formula) };
    default: {
      const keys = type === 'Currency' ? { ...META_KEYS, ...CURRENCY_KEYS } : META_KEYS;
      const meta = Object.fromEntries(Object.entries(options).map(([k, v]) => [keys[k] ?? k, v]));
      return Object.keys(meta).length ? { meta } : {};
    }
  }
}

/**
 * A v3 field body as the v1 column body the column use cases take (`type` is
 * the uidt, `default_value` the cdf); `tableId`: the table a link is added to.
 */
export function columnOfField(field: FieldV3, tableId?: string): ColumnFields {
  return {
    title: field.title,
    uidt: field.type,
    ...(field.description !== undefined ? { description: field.description } : {}),
    ...(field.default_value !== undefined ? { cdf: field.default_value } : {}),
    ...(field.unique !== undefined ? { unique: field.unique } : {}),
    ...optionsAsColumn(field.type, (field.options ?? {}) as Record<string, unknown>, tableId),
  } as ColumnFields;
}

/** A v3 field change as a v1 column patch (options only when the body names a type or options). */
export function columnPatchOfField(field: FieldPatchV3, current: { uidt: string; fk_model_id: string }): ColumnPatch {
  const type = field.type ?? current.uidt;
  return {
    title: field.title,
    ...(field.type !== undefined ? { uidt: field.type } : {}),
    ...(field.description !== undefined ? { description: field.description } : {}),
    ...(field.default_value !== undefined ? { cdf: field.default_value } : {}),
    ...(field.unique !== undefined ? { unique: field.unique } : {}),
    ...(field.options !== undefined ? optionsAsColumn(type, field.options as Record<string, unknown>, current.fk_model_id) : {}),
  } as ColumnPatch;
}
