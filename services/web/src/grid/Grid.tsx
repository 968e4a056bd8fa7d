import { useEffect, useRef, useState, type ClipboardEvent, type KeyboardEvent } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { Column, Row } from '../api';
import type { RowStore } from '../rows';
import { cellText, isEditable, parseInput } from '../columns';
import { CellEditor } from './CellEditor';
import { RelationCell } from './RelationCell';
import { isLinkUidt, isRelationColumn, relationText } from '../relations';

const ROW_HEIGHT = 34;
const COL_WIDTH = 180;
const HEAD_WIDTH = 84;

export interface GridProps {
  store: RowStore;
  columns: Column[];
  pk: string;
  editable: boolean;
  version: number;
  active: { row: number; col: number };
  setActive: (a: { row: number; col: number }) => void;
  onExpand: (row: Row) => void;
  onCommit: (row: Row, column: Column, value: unknown) => Promise<void>;
  /** A paste: updates of loaded rows, rows to add past the end, and the cells as they were (undo). */
  onCommitBlock: (updates: Row[], inserts: Row[], befores: { key: unknown; title: string; before: unknown }[]) => Promise<void>;
  onUndo: () => Promise<void>;
  /** Opens a link cell's record picker (editors and up: the grid offers it only then). */
  onOpenLinks?: (row: Row, column: Column) => void;
}

/** A value as copied text (tab-separated rows): the raw value, not its display. */
function copyText(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return text.replace(/[\t\r\n]+/g, ' ');
}

/** Tab-separated text (a spreadsheet's clipboard) as rows of cells. */
export function parseTsv(text: string): string[][] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines.map((line) => line.split('\t'));
}

/**
 * The spreadsheet grid: DOM rows (readable by screen readers and axe) of which
 * only those in view exist (TanStack Virtual), ARIA grid semantics with the
 * active cell as `aria-activedescendant`, keyboard like a spreadsheet: arrows,
 * Tab / Shift-Tab, Home / End, Ctrl-Home / Ctrl-End, PageUp / PageDown, Enter
 * or typing to edit, Esc to cancel, Delete to clear, Space to toggle a checkbox.
 */
export function Grid({ store, columns, pk, editable, active, setActive, onExpand, onCommit, onCommitBlock, onUndo, onOpenLinks }: GridProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const gridRef = useRef<HTMLDivElement>(null);
  const [editing, setEditing] = useState<{ initial?: string } | null>(null);
  // The other corner of a Shift-selected range (null: just the active cell).
  const [anchor, setAnchor] = useState<{ row: number; col: number } | null>(null);
  // Characters typed after an edit started by typing and before its editor has focus (fast typists, scripted input).
  const typed = useRef<string | null>(null);
  const total = Math.max(0, store.total);
  const virtualizer = useVirtualizer({ count: total, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 8 });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? 0;

  // Fetch the pages of the rows in view (and only those).
  useEffect(() => { store.ensure(first, last); }, [store, first, last, total]);

  const move = (row: number, col: number, extend = false) => {
    const next = { row: clamp(row, 0, total - 1), col: clamp(col, 0, columns.length - 1) };
    setAnchor(extend ? (anchor ?? active) : null);
    setActive(next);
    typed.current = null;
    setEditing(null);
    virtualizer.scrollToIndex(next.row, { align: 'auto' });
    const left = HEAD_WIDTH + next.col * COL_WIDTH;
    const el = scroller.current;
    if (el) {
      if (left < el.scrollLeft + HEAD_WIDTH) el.scrollLeft = left - HEAD_WIDTH;
      else if (left + COL_WIDTH > el.scrollLeft + el.clientWidth) el.scrollLeft = left + COL_WIDTH - el.clientWidth;
    }
  };

  const column = columns[active.col];
  const row = store.row(active.row);
  const canEdit = (c: Column | undefined) => editable && !!c && isEditable(c);
  const canLink = (c: Column | undefined) => editable && !!c && !!onOpenLinks && isLinkUidt(c.uidt);
  const openLinks = (r: Row | undefined, c: Column | undefined) => { if (r && c && canLink(c)) onOpenLinks?.(r, c); };

  const startEdit = (initial?: string) => {
    if (canLink(column)) { openLinks(row, column); return; }
    if (!row || !canEdit(column)) return;
    if (column.uidt === 'Checkbox') { void onCommit(row, column, !row[column.title]); return; }
    typed.current = initial ?? null;
    setEditing({ initial });
  };

  const finishEdit = (value: unknown, committed: boolean, step?: { row: number; col: number }) => {
    typed.current = null;
    setEditing(null);
    if (committed && row && column && value !== row[column.title]) void onCommit(row, column, value);
    if (step) move(active.row + step.row, active.col + step.col);
    gridRef.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (typed.current !== null) {
      // The editor is on its way: keep what is typed meanwhile for it.
      if (event.key.length === 1) { typed.current += event.key; event.preventDefault(); }
      return;
    }
    if (editing) return; // the editor handles its own keys
    const page = Math.max(1, Math.floor((scroller.current?.clientHeight ?? 400) / ROW_HEIGHT) - 1);
    const ctrl = event.ctrlKey || event.metaKey;
    const shift = event.shiftKey;
    if (ctrl && event.key.toLowerCase() === 'z' && editable) { event.preventDefault(); void onUndo(); return; }
    const keys: Record<string, () => void> = {
      ArrowUp: () => move(active.row - 1, active.col, shift),
      ArrowDown: () => move(active.row + 1, active.col, shift),
      ArrowLeft: () => move(active.row, active.col - 1, shift),
      ArrowRight: () => move(active.row, active.col + 1, shift),
      Tab: () => move(active.row, active.col + (event.shiftKey ? -1 : 1)),
      Home: () => move(ctrl ? 0 : active.row, 0, shift),
      End: () => move(ctrl ? total - 1 : active.row, columns.length - 1, shift),
      PageUp: () => move(active.row - page, active.col),
      PageDown: () => move(active.row + page, active.col),
      Enter: () => startEdit(),
      F2: () => startEdit(),
      ' ': () => { if (column?.uidt === 'Checkbox') startEdit(); else if (row) onExpand(row); },
      Delete: () => { if (row && canEdit(column) && column.uidt !== 'Checkbox') void onCommit(row, column, null); },
      Backspace: () => { if (row && canEdit(column) && column.uidt !== 'Checkbox') void onCommit(row, column, null); },
    };
    const action = keys[event.key];
    if (action) {
      // Tab leaves the grid at its edges, as it should for keyboard users.
      if (event.key === 'Tab' && ((event.shiftKey && active.col === 0) || (!event.shiftKey && active.col === columns.length - 1))) return;
      event.preventDefault();
      action();
    } else if (event.key.length === 1 && !ctrl && !event.altKey && canEdit(column) && column.uidt !== 'Checkbox' && column.uidt !== 'SingleSelect') {
      event.preventDefault();
      startEdit(event.key);
    }
  };

  const corner = anchor ?? active;
  const range = { top: Math.min(corner.row, active.row), bottom: Math.max(corner.row, active.row), left: Math.min(corner.col, active.col), right: Math.max(corner.col, active.col) };
  const inRange = (r: number, c: number) => r >= range.top && r <= range.bottom && c >= range.left && c <= range.right;

  /** Copies the selected range as tab-separated text (rows not loaded copy as blank). */
  const onCopy = (event: ClipboardEvent<HTMLDivElement>) => {
    if (editing) return;
    const lines: string[] = [];
    for (let r = range.top; r <= range.bottom; r++) {
      const row = store.row(r);
      // A relation cell copies what it shows (display values, a count), not the API's objects.
      lines.push(columns.slice(range.left, range.right + 1).map((c) => (isRelationColumn(c) ? copyText(relationText(c, row?.[c.title])) : copyText(row?.[c.title]))).join('\t'));
    }
    event.clipboardData.setData('text/plain', lines.join('\n'));
    event.preventDefault();
  };

  /** Pastes tab-separated text at the range's top-left cell: rows past the last are added (one bulk insert). */
  const onPaste = (event: ClipboardEvent<HTMLDivElement>) => {
    if (editing || !editable) return;
    event.preventDefault();
    const block = parseTsv(event.clipboardData.getData('text/plain'));
    const updates: Row[] = [];
    const inserts: Row[] = [];
    const befores: { key: unknown; title: string; before: unknown }[] = [];
    block.forEach((cells, i) => {
      const r = range.top + i;
      const fields: Row = {};
      cells.forEach((text, j) => {
        const column = columns[range.left + j];
        if (!column || !isEditable(column)) return;
        fields[column.title] = column.uidt === 'Checkbox' ? ['true', '1', '✓', 'yes'].includes(text.trim().toLowerCase()) : parseInput(column, text);
      });
      if (Object.keys(fields).length === 0) return;
      if (r >= total) { inserts.push(fields); return; }
      const row = store.row(r);
      if (!row) return;
      for (const title of Object.keys(fields)) befores.push({ key: row[pk], title, before: row[title] });
      updates.push({ [pk]: row[pk], ...fields });
    });
    if (updates.length || inserts.length) void onCommitBlock(updates, inserts, befores);
  };

  const width = HEAD_WIDTH + columns.length * COL_WIDTH;
  const activeId = total > 0 ? `cell-${active.row}-${active.col}` : undefined;
  return (
    <div className="grid-scroller" ref={scroller} data-testid="grid-scroller" data-pages-fetched={store.fetched} data-total={store.total}>
      <div ref={gridRef} role="grid" aria-label="Records" aria-rowcount={total + 1} aria-colcount={columns.length + 1} aria-readonly={!editable}
        aria-activedescendant={editing ? undefined : activeId} aria-multiselectable={true} tabIndex={0} onKeyDown={onKeyDown}
        onCopy={onCopy} onPaste={onPaste} className="grid" style={{ width }}>
        <div role="row" aria-rowindex={1} className="grid-row grid-head">
          <div role="columnheader" aria-colindex={1} className="cell head-cell row-head">#</div>
          {columns.map((c, i) => (
            <div role="columnheader" aria-colindex={i + 2} key={c.id} className="cell head-cell" title={c.uidt}>
              <span className="col-title">{c.title}</span> <span className="col-type">{c.uidt}</span>
            </div>
          ))}
        </div>
        <div className="grid-body" style={{ height: virtualizer.getTotalSize() }}>
          {items.map((item) => {
            const r = store.row(item.index);
            return (
              <div role="row" aria-rowindex={item.index + 2} key={item.key} className={`grid-row${item.index === active.row ? ' active-row' : ''}`}
                style={{ transform: `translateY(${item.start}px)` }} data-row={item.index}>
                <div role="rowheader" aria-colindex={1} className="cell row-head">
                  <span className="row-num">{item.index + 1}</span>
                  {r && <button type="button" tabIndex={-1} className="expand" aria-label={`Expand row ${item.index + 1}`} onClick={() => onExpand(r)}>⤢</button>}
                </div>
                {columns.map((c, ci) => {
                  const isActive = item.index === active.row && ci === active.col;
                  const selected = inRange(item.index, ci);
                  const value = r?.[c.title];
                  return (
                    <div role="gridcell" aria-colindex={ci + 2} id={`cell-${item.index}-${ci}`} key={c.id} aria-selected={selected}
                      aria-readonly={!canEdit(c) && !canLink(c)} className={`cell type-${c.uidt}${isActive ? ' active' : ''}${selected && !isActive ? ' in-range' : ''}`}
                      onMouseDown={(e) => {
                        if (e.shiftKey) { setAnchor(anchor ?? active); setActive({ row: item.index, col: ci }); setEditing(null); }
                        else if (!isActive) { setAnchor(null); setActive({ row: item.index, col: ci }); setEditing(null); }
                      }}
                      onClick={() => { if (isActive && c.uidt === 'Checkbox' && r && canEdit(c)) void onCommit(r, c, !r[c.title]); }}
                      onDoubleClick={() => { setActive({ row: item.index, col: ci }); if (canLink(c)) openLinks(r, c); else if (r && canEdit(c) && c.uidt !== 'Checkbox') setEditing({}); }}>
                      {isActive && editing && r ? (
                        <CellEditor column={c} value={value} typed={typed} label={`${c.title}, row ${item.index + 1}`} onDone={finishEdit} />
                      ) : r ? <CellValue column={c} value={value} /> : <span className="loading-cell" aria-hidden="true" />}
                      {isActive && r && canLink(c) && (
                        <button type="button" tabIndex={-1} className="cell-button" aria-label={`Edit links: ${c.title}, row ${item.index + 1}`} onClick={() => openLinks(r, c)}>+</button>
                      )}
                    </div>
                  );
                })}
              </div>
            );
          })}
        </div>
      </div>
      {store.total === 0 && <p className="empty">No rows.</p>}
      {store.error && <p className="error" role="alert">{store.error}</p>}
    </div>
  );
}

/** A cell's value as text: markup in a value is shown, never interpreted. */
function CellValue({ column, value }: { column: Column; value: unknown }) {
  if (isRelationColumn(column)) return <RelationCell column={column} value={value} />;
  if (column.uidt === 'Checkbox') return <span className="check" aria-label={value ? 'checked' : 'not checked'}>{value ? '✓' : ''}</span>;
  if (column.uidt === 'SingleSelect' && value) {
    const option = column.colOptions?.options?.find((o) => o.title === value);
    return <span className="chip" style={option?.color ? { background: option.color } : undefined}>{String(value)}</span>;
  }
  return <span className="text">{cellText(column, value)}</span>;
}

function clamp(n: number, min: number, max: number): number {
  return Math.max(min, Math.min(max, n));
}
