import { errors } from '@tabula/http';
import { newId } from '@tabula/db';
import type { SelectOption } from '../../repositories/column.repository';

const PALETTE = ['#cfdffe', '#d0f1fd', '#c2f5e9', '#ddecca', '#fee2d5', '#ffeab6', '#ffdce5', '#fee2d5', '#e1d5f9', '#d0f0fd'];

/** Incoming option shape (after zod). */
export interface OptionInput {
  id?: string;
  title: string;
  color?: string;
  order?: number;
}

/** Parses the legacy `dtxp` form `'a','b'` some clients still send for selects. */
export function optionsFromDtxp(dtxp: unknown): OptionInput[] {
  if (typeof dtxp !== 'string' || dtxp.trim() === '') return [];
  return dtxp.split(',').map((s) => s.trim().replace(/^'(.*)'$/, '$1').replace(/''/g, "'")).filter(Boolean).map((title) => ({ title }));
}

/**
 * Normalises select options: ids kept (matched to existing ones by id, then by
 * title), colors defaulted from a palette, order from position; titles unique.
 */
export function normaliseOptions(input: OptionInput[], existing: SelectOption[] = []): SelectOption[] {
  const seen = new Set<string>();
  return input.map((o, i) => {
    if (seen.has(o.title)) throw errors.badRequest(`Duplicate select option '${o.title}'`);
    seen.add(o.title);
    const match = existing.find((e) => o.id && e.id === o.id) ?? existing.find((e) => e.title === o.title);
    return { id: match?.id ?? newId('nc'), title: o.title, color: o.color ?? match?.color ?? PALETTE[i % PALETTE.length], order: o.order ?? i + 1 };
  });
}

/** Options whose title changed (same id), for rewriting stored values. */
export function renamedOptions(before: SelectOption[], after: SelectOption[]): { from: string; to: string }[] {
  return after.flatMap((a) => {
    const b = before.find((x) => x.id === a.id);
    return b && b.title !== a.title ? [{ from: b.title, to: a.title }] : [];
  });
}
