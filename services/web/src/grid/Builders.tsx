import { useState } from 'react';
import type { Column } from '../api';
import { isDateColumn, operatorsFor } from '../columns';
import { isFilterableRelation } from '../relations';

export interface FilterDraft { column: string; op: string; value: string; }
export interface SortDraft { column: string; direction: 'asc' | 'desc'; }

/** A value as the `where` language reads it: commas and parentheses would end the term, so they are dropped. */
function term(value: string): string {
  return value.replace(/[(),~]/g, ' ').trim();
}

/**
 * The filters (and the search over the display column) as the API's `where`
 * language: `(Title,like,%x%)~and(Qty,gt,3)~and(Done,checked)`; dates compare
 * with the `exactDate` sub-operator.
 */
export function buildWhere(columns: Column[], filters: FilterDraft[], search: string, display: Column | undefined): string {
  const byTitle = new Map(columns.map((c) => [c.title, c]));
  const terms: string[] = [];
  for (const f of filters) {
    const column = byTitle.get(f.column);
    if (!column) continue;
    const op = operatorsFor(column).find((o) => o.op === f.op);
    if (!op) continue;
    if (op.unary) terms.push(`(${column.title},${op.op})`);
    else if (f.op === 'like' || f.op === 'nlike') terms.push(`(${column.title},${op.op},%${term(f.value)}%)`);
    else if (isDateColumn(column)) terms.push(`(${column.title},${op.op},exactDate,${term(f.value)})`);
    else terms.push(`(${column.title},${op.op},${term(f.value)})`);
  }
  if (search.trim() && display) terms.push(`(${display.title},like,%${term(search)}%)`);
  return terms.join('~and');
}

/** The sorts as the API's `sort` parameter: `-Qty,Title`. */
export function buildSort(sorts: SortDraft[]): string {
  return sorts.map((s) => `${s.direction === 'desc' ? '-' : ''}${s.column}`).join(',');
}

/** The filter builder: column, NocoDB operator, value; applied to the grid and saved into the view. */
export function FilterBuilder({ columns, initial, onApply, onClose }: { columns: Column[]; initial: FilterDraft[]; onApply: (f: FilterDraft[]) => void; onClose: () => void }) {
  const [drafts, setDrafts] = useState<FilterDraft[]>(initial.length ? initial : []);
  const filterable = columns.filter((c) => c.uidt !== 'Attachment' && c.uidt !== 'JSON' && isFilterableRelation(c));
  const set = (i: number, patch: Partial<FilterDraft>) => setDrafts(drafts.map((d, j) => (j === i ? { ...d, ...patch } : d)));
  const preview = buildWhere(columns, drafts, '', undefined);
  return (
    <div className="panel" role="region" aria-label="Filters">
      {drafts.length === 0 && <p>No filters.</p>}
      {drafts.map((d, i) => {
        const column = filterable.find((c) => c.title === d.column) ?? filterable[0];
        const ops = column ? operatorsFor(column) : [];
        const op = ops.find((o) => o.op === d.op);
        return (
          <div className="inline" key={i}>
            <label>Field<select value={d.column} onChange={(e) => { const c = filterable.find((x) => x.title === e.target.value); set(i, { column: e.target.value, op: c ? operatorsFor(c)[0].op : 'eq' }); }}>
              {filterable.map((c) => <option key={c.id} value={c.title}>{c.title}</option>)}
            </select></label>
            <label>Operator<select value={d.op} onChange={(e) => set(i, { op: e.target.value })}>
              {ops.map((o) => <option key={o.op} value={o.op}>{o.label}</option>)}
            </select></label>
            {!op?.unary && (column?.uidt === 'SingleSelect' ? (
              <label>Value<select value={d.value} onChange={(e) => set(i, { value: e.target.value })}>
                <option value="">—</option>
                {(column.colOptions?.options ?? []).map((o) => <option key={o.title} value={o.title}>{o.title}</option>)}
              </select></label>
            ) : (
              <label>Value<input value={d.value} type={column?.uidt === 'Date' ? 'date' : 'text'} onChange={(e) => set(i, { value: e.target.value })} /></label>
            ))}
            <button type="button" aria-label={`Remove filter ${i + 1}`} onClick={() => setDrafts(drafts.filter((_, j) => j !== i))}>✕</button>
          </div>
        );
      })}
      <p className="where"><span>where</span> <code data-testid="where-preview">{preview || '—'}</code></p>
      <div className="inline">
        <button type="button" onClick={() => { const c = filterable[0]; if (c) setDrafts([...drafts, { column: c.title, op: operatorsFor(c)[0].op, value: '' }]); }}>Add filter</button>
        <button type="button" className="primary" onClick={() => onApply(drafts)}>Apply filters</button>
        <button type="button" onClick={onClose}>Close</button>
      </div>
    </div>
  );
}

/** The sort builder: fields and directions, in order. */
export function SortBuilder({ columns, initial, onApply, onClose }: { columns: Column[]; initial: SortDraft[]; onApply: (s: SortDraft[]) => void; onClose: () => void }) {
  const [drafts, setDrafts] = useState<SortDraft[]>(initial);
  const sortable = columns.filter((c) => c.uidt !== 'Attachment' && c.uidt !== 'JSON');
  const set = (i: number, patch: Partial<SortDraft>) => setDrafts(drafts.map((d, j) => (j === i ? { ...d, ...patch } : d)));
  return (
    <div className="panel" role="region" aria-label="Sorts">
      {drafts.length === 0 && <p>No sorts.</p>}
      {drafts.map((d, i) => (
        <div className="inline" key={i}>
          <label>Sort by<select value={d.column} onChange={(e) => set(i, { column: e.target.value })}>
            {sortable.map((c) => <option key={c.id} value={c.title}>{c.title}</option>)}
          </select></label>
          <label>Direction<select value={d.direction} onChange={(e) => set(i, { direction: e.target.value as 'asc' | 'desc' })}>
            <option value="asc">Ascending</option><option value="desc">Descending</option>
          </select></label>
          <button type="button" aria-label={`Remove sort ${i + 1}`} onClick={() => setDrafts(drafts.filter((_, j) => j !== i))}>✕</button>
        </div>
      ))}
      <div className="inline">
        <button type="button" onClick={() => { const c = sortable[0]; if (c) setDrafts([...drafts, { column: c.title, direction: 'asc' }]); }}>Add sort</button>
        <button type="button" className="primary" onClick={() => onApply(drafts)}>Apply sorts</button>
        <button type="button" onClick={onClose}>Close</button>
      </div>
    </div>
  );
}
