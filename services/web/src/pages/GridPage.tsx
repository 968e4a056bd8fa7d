import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { ApiError, bases, records, tables, views, type Column, type Row, type Table, type View } from '../api';
import { navigate } from '../router';
import { RowStore } from '../rows';
import { followTable, type LiveStatus } from '../live';
import { canComment, canEditData, canEditSchema } from '../roles';
import { isDateColumn } from '../columns';
import { Grid } from '../grid/Grid';
import { FilterBuilder, SortBuilder, buildSort, buildWhere, type FilterDraft, type SortDraft } from '../grid/Builders';
import { AddColumnDialog } from '../grid/AddColumnDialog';
import { EditColumnDialog } from '../grid/EditColumnDialog';
import { ExpandedRecord } from '../grid/ExpandedRecord';
import { LinkPicker } from '../grid/LinkPicker';
import { relations } from '../relations-api';
import { labelOf } from '../relations';
import type { Me } from '../App';

/** A table's grid: columns from meta, rows paged on demand, live, with filter, sort and search saved into the view. */
export function GridPage({ baseId, tableId, me }: { baseId: string; tableId: string; me: Me }) {
  const [table, setTable] = useState<Table | null>(null);
  const [role, setRole] = useState<string | null>(null);
  const [error, setError] = useState('');
  const [filters, setFilters] = useState<FilterDraft[]>([]);
  const [sorts, setSorts] = useState<SortDraft[]>([]);
  const [search, setSearch] = useState('');
  const [panel, setPanel] = useState<'' | 'filter' | 'sort' | 'column' | 'fields' | 'edit'>('');
  const [editing, setEditing] = useState<Column | null>(null);
  const [expanded, setExpanded] = useState<Row | null>(null);
  const [linking, setLinking] = useState<{ row: Row; column: Column } | null>(null);
  const [live, setLive] = useState<LiveStatus>('connecting');
  const [active, setActive] = useState<{ row: number; col: number }>({ row: 0, col: 0 });

  const loadTable = useCallback(async () => {
    const t = await tables.get(tableId);
    setTable(t);
    return t;
  }, [tableId]);

  useEffect(() => {
    loadTable().then((t) => {
      const view = defaultView(t);
      const byId = new Map((t.columns ?? []).map((c) => [c.id, c]));
      setFilters((view?.filters ?? []).flatMap((f) => (byId.has(f.fk_column_id) ? [{ column: byId.get(f.fk_column_id)!.title, op: f.comparison_op, value: f.value == null ? '' : String(f.value) }] : [])));
      setSorts((view?.sorts ?? []).flatMap((s) => (byId.has(s.fk_column_id) ? [{ column: byId.get(s.fk_column_id)!.title, direction: s.direction }] : [])));
      setSearch(typeof view?.meta?.search === 'string' ? view.meta.search : '');
    }, (e: ApiError) => setError(e.message));
    bases.myRole(baseId, me.email).then(setRole, () => setRole('viewer'));
  }, [baseId, loadTable, me.email]);

  // The view's order (view columns API) places the fields; the column's own order breaks ties.
  const allColumns = useMemo(() => {
    const placed = new Map(((table && defaultView(table)?.columns) ?? []).map((vc) => [vc.fk_column_id, vc.order]));
    const place = (c: Column) => placed.get(c.id) ?? c.order ?? 0;
    return (table?.columns ?? []).filter((c) => !c.system && !c.pk).sort((a, b) => place(a) - place(b) || (a.order ?? 0) - (b.order ?? 0));
  }, [table]);
  // Fields hidden in the view (view columns with show: false) stay out of the grid.
  const hidden = useMemo(() => new Set(((table && defaultView(table)?.columns) ?? []).filter((vc) => vc.show === false).map((vc) => vc.fk_column_id)), [table]);
  const columns = useMemo(() => allColumns.filter((c) => !hidden.has(c.id)), [allColumns, hidden]);
  const pk = useMemo(() => (table?.columns ?? []).find((c) => c.pk)?.title ?? 'Id', [table]);
  const display = useMemo(() => columns.find((c) => c.pv) ?? columns.find((c) => !c.pk), [columns]);
  const where = useMemo(() => buildWhere(columns, filters, search, display), [columns, filters, search, display]);
  const sort = useMemo(() => buildSort(sorts), [sorts]);
  const store = useMemo(() => (table ? new RowStore(tableId, { where, sort }, pk) : null), [table, tableId, where, sort, pk]);

  // One stream per table (not per filter): events go to whatever row store is current.
  const current = useRef<RowStore | null>(null);
  current.current = store;
  const ready = store !== null;
  useEffect(() => {
    if (!ready) return;
    return followTable(tableId, {
      onStatus: setLive,
      onReset: () => current.current?.refresh(),
      onRecords: (event) => {
        const rows = current.current;
        if (!rows) return;
        if (event.type === 'records.after.update') {
          for (const row of event.rows) rows.patch(row[pk], row);
        } else {
          rows.refresh();
        }
      },
    });
  }, [ready, tableId, pk]);

  // The search box filters as one types, a moment after the last key (one query, not one per key).
  const [searchInput, setSearchInput] = useState('');
  useEffect(() => { setSearchInput(search); }, [search]);
  useEffect(() => {
    if (searchInput === search) return;
    const timer = setTimeout(() => setSearch(searchInput), 250);
    return () => clearTimeout(timer);
  }, [searchInput, search]);

  const editable = role !== null && canEditData(role);
  const schemaEditable = role !== null && canEditSchema(role);

  // Saves run one after another, each on the view as the server has it now (not as this page last read it).
  const saving = useRef<Promise<void>>(Promise.resolve());
  const saveView = (nextFilters: FilterDraft[], nextSorts: SortDraft[], nextSearch: string) => {
    setFilters(nextFilters);
    setSorts(nextSorts);
    setSearch(nextSearch);
    if (!table || !schemaEditable) return;
    saving.current = saving.current.then(async () => {
      try {
        const current = defaultView(await tables.get(tableId));
        if (!current) return;
        const byTitle = new Map(columns.map((c) => [c.title, c]));
        for (const f of current.filters ?? []) await views.removeFilter(f.id);
        for (const f of nextFilters) {
          const column = byTitle.get(f.column);
          if (column) await views.addFilter(current.id, { fk_column_id: column.id, comparison_op: f.op, value: f.value, ...(isDateColumn(column) ? { comparison_sub_op: 'exactDate' } : {}) });
        }
        for (const s of current.sorts ?? []) await views.removeSort(s.id);
        for (const s of nextSorts) {
          const column = byTitle.get(s.column);
          if (column) await views.addSort(current.id, { fk_column_id: column.id, direction: s.direction });
        }
        if ((current.meta?.search ?? '') !== nextSearch) await views.update(current.id, { meta: { ...(current.meta ?? {}), search: nextSearch } });
      } catch (e) {
        setError(`The view was not saved: ${(e as Error).message}`);
      }
    });
  };

  const addRow = async () => {
    if (!store) return;
    try {
      await records.create(tableId, {});
      store.refresh();
      const last = Math.max(0, store.total);
      setActive({ row: last, col: 0 });
    } catch (e) { setError((e as Error).message); }
  };

  const deleteRow = async (row: Row | undefined) => {
    if (!store || !row) return;
    if (!confirm(`Delete row ${String(row[pk])}?`)) return;
    try { await records.remove(tableId, [{ [pk]: row[pk] }]); store.refresh(); } catch (e) { setError((e as Error).message); }
  };

  /** A row read again (after its links changed: link cells, lookups and rollups follow). */
  const refreshRow = (key: unknown) => {
    records.get(tableId, key).then((fresh) => { store?.patch(key, fresh); }, (e: ApiError) => setError(e.message));
  };

  const run = async (action: () => Promise<unknown>) => {
    try { await action(); } catch (e) { setError((e as Error).message); }
  };
  /** Moves a field one place left or right in the view: the view columns whose place changes get their new order. */
  const move = (index: number, direction: -1 | 1) => run(async () => {
    const view = table && defaultView(table);
    if (!view) return;
    const ids = allColumns.map((c) => c.id);
    [ids[index], ids[index + direction]] = [ids[index + direction], ids[index]];
    const placed = new Map((view.columns ?? []).map((vc) => [vc.fk_column_id, vc.order]));
    for (const [i, id] of ids.entries()) if (placed.get(id) !== i + 1) await views.moveColumn(view.id, id, i + 1);
    await loadTable();
  });

  if (error && !table) return <p className="error" role="alert">{error}</p>;
  if (!table || !store || role === null) return <p>Loading…</p>;

  return (
    <section className="grid-page" aria-labelledby="table-title">
      <div className="toolbar" role="toolbar" aria-label="Table tools">
        <a href={`/bases/${baseId}`} onClick={(e) => { e.preventDefault(); navigate(`/bases/${baseId}`); }}>← Tables</a>
        <h1 id="table-title">{table.title}</h1>
        <span className={`live live-${live}`} role="status" aria-label={`Live updates: ${live}`}>{live === 'live' ? '● live' : `○ ${live}`}</span>
        <a href={`/bases/${baseId}/tables/${tableId}/webhooks`} onClick={(e) => { e.preventDefault(); navigate(`/bases/${baseId}/tables/${tableId}/webhooks`); }}>Webhooks</a>
        <span className="spacer" />
        <label className="search">Search<input type="search" value={searchInput} onChange={(e) => setSearchInput(e.target.value)} onBlur={() => saveView(filters, sorts, searchInput)} /></label>
        <button type="button" aria-expanded={panel === 'filter'} onClick={() => setPanel(panel === 'filter' ? '' : 'filter')}>Filter{filters.length ? ` (${filters.length})` : ''}</button>
        <button type="button" aria-expanded={panel === 'sort'} onClick={() => setPanel(panel === 'sort' ? '' : 'sort')}>Sort{sorts.length ? ` (${sorts.length})` : ''}</button>
        {schemaEditable && <button type="button" aria-expanded={panel === 'fields'} onClick={() => setPanel(panel === 'fields' ? '' : 'fields')}>Fields{columns.length < allColumns.length ? ` (${allColumns.length - columns.length} hidden)` : ''}</button>}
        {schemaEditable && <button type="button" onClick={() => setPanel('column')}>Add column</button>}
        {editable && <button type="button" className="primary" onClick={() => void addRow()}>Add row</button>}
        {editable && <button type="button" className="danger" onClick={() => void deleteRow(store.row(active.row))}>Delete row</button>}
      </div>
      {error && <p className="error" role="alert">{error} <button type="button" onClick={() => setError('')}>Dismiss</button></p>}
      {panel === 'filter' && <FilterBuilder columns={columns} initial={filters} onApply={(f) => { saveView(f, sorts, search); setPanel(''); }} onClose={() => setPanel('')} />}
      {panel === 'sort' && <SortBuilder columns={columns} initial={sorts} onApply={(s) => { saveView(filters, s, search); setPanel(''); }} onClose={() => setPanel('')} />}
      {panel === 'fields' && (
        <div className="panel" role="region" aria-label="Fields">
          <ul className="field-list">
            {allColumns.map((c, i) => (
              <li key={c.id} className="inline">
                <label className="check-label"><input type="checkbox" checked={!hidden.has(c.id)} onChange={(e) => void run(async () => { const view = defaultView(table); if (view) await views.showColumn(view.id, c.id, e.target.checked); await loadTable(); })} /> Show {c.title}</label>
                <button type="button" onClick={() => { setEditing(c); setPanel('edit'); }}>Edit {c.title}</button>
                <button type="button" disabled={i === 0} onClick={() => void move(i, -1)}>Move {c.title} left</button>
                <button type="button" disabled={i === allColumns.length - 1} onClick={() => void move(i, 1)}>Move {c.title} right</button>
                <button type="button" className="danger" onClick={() => { if (confirm(`Delete the column "${c.title}" and its values?`)) void run(async () => { await tables.removeColumn(c.id); await loadTable(); }); }}>Delete {c.title}</button>
              </li>
            ))}
          </ul>
          <button type="button" onClick={() => setPanel('')}>Close</button>
        </div>
      )}
      {panel === 'edit' && editing && (
        <EditColumnDialog key={editing.id} column={editing} columns={allColumns} onClose={() => setPanel('fields')}
          onSave={async (patch) => { await tables.updateColumn(editing.id, patch); await loadTable(); setPanel('fields'); }} />
      )}
      {panel === 'column' && (
        <AddColumnDialog baseId={baseId} columns={table.columns ?? []} onClose={() => setPanel('')}
          onCreate={async (c) => { await (c.relation ? relations.addColumn(tableId, c.title, c.relation) : tables.addColumn(tableId, c)); setPanel(''); await loadTable(); }} />
      )}
      <GridWithStore store={store} columns={columns} pk={pk} editable={editable} active={active} setActive={setActive}
        onExpand={setExpanded} onError={setError} tableId={tableId} whereText={where} onOpenLinks={(row, column) => setLinking({ row, column })} />
      {expanded && (
        <ExpandedRecord tableId={tableId} columns={columns} pk={pk} row={expanded} editable={editable} commentable={canComment(role)} resolvable={canEditSchema(role)} meId={me.id}
          onClose={() => setExpanded(null)} onSaved={(row) => { store.patch(row[pk], row); }} />
      )}
      {linking && editable && (
        <LinkPicker key={`${String(linking.row[pk])}-${linking.column.id}`} tableId={tableId} column={linking.column} recordKey={linking.row[pk]}
          rowLabel={display ? labelOf(linking.row, display.title) : `row ${String(linking.row[pk])}`}
          onChanged={() => refreshRow(linking.row[pk])} onClose={() => setLinking(null)} />
      )}
    </section>
  );
}

/** One undoable change: cells as they were (written back) and rows a paste added (deleted). */
interface UndoStep { cells: { key: unknown; title: string; before: unknown }[]; added: unknown[] }

function GridWithStore(props: { store: RowStore; columns: Column[]; pk: string; editable: boolean; active: { row: number; col: number };
  setActive: (a: { row: number; col: number }) => void; onExpand: (row: Row) => void; onError: (m: string) => void; tableId: string; whereText: string;
  onOpenLinks?: (row: Row, column: Column) => void }) {
  const { store, pk, tableId } = props;
  // Re-render on every store change (pages arriving, edits, live events).
  const version = useSyncExternalStore((l) => store.subscribe(l), () => store.version);
  const undo = useRef<UndoStep[]>([]);
  const remember = (step: UndoStep) => { undo.current.push(step); if (undo.current.length > 100) undo.current.shift(); };

  const commit = async (row: Row, column: Column, value: unknown) => {
    const key = row[pk];
    const before = row[column.title];
    store.patch(key, { [column.title]: value });
    try {
      await records.update(tableId, { [pk]: key, [column.title]: value });
      remember({ cells: [{ key, title: column.title, before }], added: [] });
    } catch (e) {
      store.patch(key, { [column.title]: before });
      props.onError((e as Error).message);
    }
  };

  /** Writes a block of cells (a paste): existing rows in one bulk update, rows past the end in one bulk insert. */
  const commitBlock = async (updates: Row[], inserts: Row[], befores: UndoStep['cells']) => {
    try {
      if (updates.length) {
        for (const u of updates) store.patch(u[pk], u);
        await records.update(tableId, updates);
      }
      let added: unknown[] = [];
      if (inserts.length) {
        const created = await records.create(tableId, inserts);
        added = (Array.isArray(created) ? created : [created]).map((c: Row) => c[pk]);
      }
      remember({ cells: befores, added });
      if (inserts.length) store.refresh();
    } catch (e) {
      store.refresh();
      props.onError((e as Error).message);
    }
  };

  const undoLast = async () => {
    const step = undo.current.pop();
    if (!step) return;
    try {
      const byKey = new Map<unknown, Row>();
      for (const c of step.cells) byKey.set(c.key, { ...(byKey.get(c.key) ?? { [pk]: c.key }), [c.title]: c.before });
      const rows = [...byKey.values()];
      for (const r of rows) store.patch(r[pk], r);
      if (rows.length) await records.update(tableId, rows);
      if (step.added.length) { await records.remove(tableId, step.added.map((key) => ({ [pk]: key }))); store.refresh(); }
    } catch (e) {
      store.refresh();
      props.onError(`Undo failed: ${(e as Error).message}`);
    }
  };

  return <Grid {...props} version={version} onCommit={commit} onCommitBlock={commitBlock} onUndo={undoLast} />;
}

function defaultView(table: Table): View | undefined {
  return table.views?.find((v) => v.is_default) ?? table.views?.[0];
}


