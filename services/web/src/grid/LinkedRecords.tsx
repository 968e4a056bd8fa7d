import { useCallback, useEffect, useId, useState } from 'react';
import { ApiError, tables, type Column, type Row } from '../api';
import { relationOf, relations } from '../relations-api';
import { countText, isLinkUidt, labelOf, linksMany, relatedOf, type RelatedTable } from '../relations';

const SHOWN = 50;
const RESULTS = 20;

/**
 * The records linked to one record through one link column, with Unlink
 * buttons and a search of the related table (by its display value) whose
 * results can be linked — when `editable` (editors and up; viewers read the
 * list only). No `<form>`: it sits inside the expanded record's.
 */
export function LinkedRecords({ tableId, column, recordKey, editable, onChanged, autoFocus = false }: {
  tableId: string; column: Column; recordKey: unknown; editable: boolean; onChanged: () => void;
  /** Focus the search when it appears (the picker; not the expanded record, whose first field keeps focus). */ autoFocus?: boolean;
}) {
  const id = useId();
  const [related, setRelated] = useState<RelatedTable | null>(null);
  const [linked, setLinked] = useState<{ list: Row[]; total: number } | null>(null);
  const [search, setSearch] = useState('');
  const [results, setResults] = useState<Row[]>([]);
  const [error, setError] = useState('');
  const fail = (e: unknown) => setError(e instanceof ApiError ? e.message : String(e));
  const relatedId = relationOf(column).fk_related_model_id ?? '';

  useEffect(() => { tables.get(relatedId).then((t) => setRelated(relatedOf(t)), fail); }, [relatedId]);

  const load = useCallback(() => relations.linked(tableId, column.id, recordKey, { limit: SHOWN })
    .then((page) => setLinked({ list: page.list, total: page.pageInfo.totalRows }), fail), [tableId, column.id, recordKey]);
  useEffect(() => { void load(); }, [load]);

  // The search runs a moment after the last key (one query, not one per key).
  useEffect(() => {
    if (!editable || !related) return;
    const timer = setTimeout(() => {
      relations.search(related.table.id, related.display, related.key, search, RESULTS).then((page) => setResults(page.list), fail);
    }, 200);
    return () => clearTimeout(timer);
  }, [editable, related, search]);

  const change = async (action: 'link' | 'unlink', record: Row) => {
    if (!related) return;
    setError('');
    try {
      await relations[action](tableId, column.id, recordKey, [{ [related.key]: record[related.key] }]);
      await load();
      onChanged();
    } catch (e) { fail(e); }
  };

  const display = related?.display;
  const linkedKeys = new Set((linked?.list ?? []).map((r) => r[related?.key ?? 'Id']));
  const many = linksMany(column);
  return (
    <div className="linked-records">
      {error && <p className="error" role="alert">{error}</p>}
      {linked === null ? <p>Loading…</p> : linked.list.length === 0 ? <p className="muted">No linked records.</p> : (
        <ul className="chips" aria-label={`${column.title}: linked records`} data-testid={`linked-${column.title}`}>
          {linked.list.map((r) => {
            const label = labelOf(r, display);
            return (
              <li key={String(r[related?.key ?? 'Id'])}>
                <span className="chip">{label}</span>
                {editable && <button type="button" className="link-button" aria-label={`Unlink ${label}`} onClick={() => void change('unlink', r)}>Unlink</button>}
              </li>
            );
          })}
        </ul>
      )}
      {linked && linked.total > linked.list.length && <p className="muted">{countText(linked.total)} in all; the first {linked.list.length} shown.</p>}
      {editable && related && (
        <div className="link-search">
          <label htmlFor={`${id}-search`}>Search {related.table.title}</label>
          <input id={`${id}-search`} type="search" value={search} autoFocus={autoFocus} onChange={(e) => setSearch(e.target.value)}
            onKeyDown={(e) => { if (e.key === 'Enter') e.preventDefault(); }} />
          {!many && <p className="muted">One record: linking another replaces it.</p>}
          <ul className="pick-list" aria-label={`${related.table.title}: records to link`}>
            {results.map((r) => {
              const label = labelOf(r, display);
              const isLinked = linkedKeys.has(r[related.key]);
              return (
                <li key={String(r[related.key])}>
                  <span>{label}</span>
                  {isLinked ? <span className="muted"> (linked)</span>
                    : <button type="button" aria-label={`Link ${label}`} onClick={() => void change('link', r)}>Link</button>}
                </li>
              );
            })}
            {results.length === 0 && <li className="muted">No records found.</li>}
          </ul>
        </div>
      )}
    </div>
  );
}

/** The expanded record's linked records: one list per link column (with link / unlink for editors and up). */
export function LinkedSection({ tableId, columns, recordKey, editable, onChanged }: {
  tableId: string; columns: Column[]; recordKey: unknown; editable: boolean; onChanged: () => void;
}) {
  const links = columns.filter((c) => isLinkUidt(c.uidt));
  if (links.length === 0) return null;
  return (
    <section aria-labelledby="links-title" className="linked-section">
      <h3 id="links-title">Linked records</h3>
      {links.map((column) => (
        <div key={column.id} className="link-field" role="group" aria-labelledby={`links-${column.id}`}>
          <h4 id={`links-${column.id}`}>{column.title}</h4>
          <LinkedRecords tableId={tableId} column={column} recordKey={recordKey} editable={editable} onChanged={onChanged} />
        </div>
      ))}
    </section>
  );
}
