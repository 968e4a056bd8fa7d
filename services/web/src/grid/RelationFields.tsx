import { useEffect, useState } from 'react';
import { tables, type Column, type Table } from '../api';
import { ROLLUP_FUNCTIONS, relationOf, type LinkType, type RelationDraft, type RollupFunction } from '../relations-api';
import { LINK_TYPES, NUMERIC_ROLLUPS, ROLLUP_LABELS, isLinkUidt, isNumberValued, lookupTargets } from '../relations';

/** The relation choices of the add-column dialog, as the user makes them. */
export interface RelationChoice { type: LinkType; childId: string; relationId: string; targetId: string; fn: RollupFunction }

export const NO_CHOICE: RelationChoice = { type: 'hm', childId: '', relationId: '', targetId: '', fn: 'count' };

/** The draft the API is sent, or why the choice is not complete yet. */
export function draftOf(uidt: string, c: RelationChoice): RelationDraft | string {
  if (uidt === 'Links') return c.childId ? { uidt, type: c.type, childId: c.childId } : 'Choose the table to link to.';
  if (!c.relationId) return 'Choose a link field (add a Links column first).';
  if (!c.targetId) return 'Choose a field of the linked table.';
  return uidt === 'Lookup' ? { uidt, relationId: c.relationId, targetId: c.targetId } : { uidt: 'Rollup', relationId: c.relationId, targetId: c.targetId, fn: c.fn };
}

/** The related table of a link column (its fields for lookups and rollups), fetched when the link changes. */
function useRelatedTable(link: Column | undefined): Table | null {
  const [table, setTable] = useState<Table | null>(null);
  const relatedId = link ? relationOf(link).fk_related_model_id : undefined;
  useEffect(() => {
    setTable(null);
    if (relatedId) tables.get(relatedId).then(setTable, () => setTable(null));
  }, [relatedId]);
  return table;
}

/**
 * Links: the other table and the kind of relation. Lookup: a link field,
 * then a field of the linked table. Rollup: the same and a function (sums and
 * averages only for numeric fields: the API refuses the others).
 */
export function RelationFields({ baseId, uidt, columns, choice, onChange }: {
  baseId: string; uidt: string; columns: Column[]; choice: RelationChoice; onChange: (c: RelationChoice) => void;
}) {
  const [tableList, setTableList] = useState<Table[]>([]);
  useEffect(() => { if (uidt === 'Links') tables.list(baseId).then(setTableList, () => setTableList([])); }, [baseId, uidt]);
  const links = columns.filter((c) => isLinkUidt(c.uidt));
  const link = links.find((c) => c.id === choice.relationId);
  const related = useRelatedTable(link);
  const targets = lookupTargets(related);
  const target = targets.find((c) => c.id === choice.targetId);
  const functions = ROLLUP_FUNCTIONS.filter((f) => !NUMERIC_ROLLUPS.includes(f) || (target && isNumberValued(target)));
  const set = (patch: Partial<RelationChoice>) => onChange({ ...choice, ...patch });

  if (uidt === 'Links') {
    return (
      <>
        <label>Link to table<select name="link-table" value={choice.childId} onChange={(e) => set({ childId: e.target.value })}>
          <option value="">—</option>
          {tableList.map((t) => <option key={t.id} value={t.id}>{t.title}</option>)}
        </select></label>
        <label>Relation<select name="link-type" value={choice.type} onChange={(e) => set({ type: e.target.value as LinkType })}>
          {LINK_TYPES.map((t) => <option key={t.type} value={t.type}>{t.label}</option>)}
        </select></label>
      </>
    );
  }
  return (
    <>
      <label>Link field<select name="relation-column" value={choice.relationId} onChange={(e) => set({ relationId: e.target.value, targetId: '' })}>
        <option value="">—</option>
        {links.map((c) => <option key={c.id} value={c.id}>{c.title}</option>)}
      </select></label>
      <label>Field of the linked table<select name="relation-target" value={choice.targetId} disabled={!related}
        onChange={(e) => set({ targetId: e.target.value, fn: 'count' })}>
        <option value="">—</option>
        {targets.map((c) => <option key={c.id} value={c.id}>{c.title}</option>)}
      </select></label>
      {uidt === 'Rollup' && (
        <label>Function<select name="rollup-function" value={choice.fn} onChange={(e) => set({ fn: e.target.value as RollupFunction })}>
          {functions.map((f) => <option key={f} value={f}>{ROLLUP_LABELS[f]}</option>)}
        </select></label>
      )}
    </>
  );
}

/** What a relation column reads, in words (its options are fixed: the API renames it only). */
export function RelationSummary({ column, columns }: { column: Column; columns: Column[] }) {
  const options = relationOf(column);
  const link = isLinkUidt(column.uidt) ? column : columns.find((c) => c.id === options.fk_relation_column_id);
  const related = useRelatedTable(link);
  const name = related?.title ?? '…';
  let text: string;
  if (isLinkUidt(column.uidt)) {
    text = `Links to ${name} (${LINK_TYPES.find((t) => t.type === options.type)?.label ?? options.type}).`;
  } else {
    const target = related?.columns?.find((c) => c.id === (options.fk_lookup_column_id ?? options.fk_rollup_column_id))?.title ?? '…';
    const what = options.rollup_function ? `${ROLLUP_LABELS[options.rollup_function]} of ${target}` : target;
    text = `${column.uidt}: ${what} of the ${name} records linked through ${link?.title ?? '…'}.`;
  }
  return <p className="muted">{text} To change what it reads, delete it and add a new column.</p>;
}
