import { useLayoutEffect, useRef, useState, type KeyboardEvent, type MutableRefObject } from 'react';
import type { Column } from '../api';
import { isNumeric, parseInput } from '../columns';

type Step = { row: number; col: number };

/** The editor of one cell, by type: text, number, date, date-time, single select. */
export function CellEditor({ column, value, typed, label, onDone }: {
  column: Column; value: unknown; label: string;
  /** What was typed to start this edit (and while it was mounting): replaces the value; null: edit the value. */
  typed: MutableRefObject<string | null>;
  onDone: (value: unknown, committed: boolean, step?: Step) => void;
}) {
  const [text, setText] = useState(typed.current ?? (value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value)));
  const ref = useRef<HTMLInputElement & HTMLSelectElement>(null);
  const done = useRef(false);
  useLayoutEffect(() => {
    if (typed.current !== null) setText(typed.current);
    typed.current = null;
    ref.current?.focus();
  }, [typed]);
  const finish = (committed: boolean, step?: Step) => {
    if (done.current) return;
    done.current = true;
    onDone(committed ? valueOf(column, text) : value, committed, step);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    event.stopPropagation();
    if (event.key === 'Enter') { event.preventDefault(); finish(true, { row: 1, col: 0 }); }
    else if (event.key === 'Escape') { event.preventDefault(); finish(false); }
    else if (event.key === 'Tab') { event.preventDefault(); finish(true, { row: 0, col: event.shiftKey ? -1 : 1 }); }
  };
  if (column.uidt === 'SingleSelect') {
    return (
      <select ref={ref} aria-label={label} className="editor" value={text} onKeyDown={onKeyDown} onBlur={() => finish(true)}
        onChange={(e) => { setText(e.target.value); done.current = true; onDone(e.target.value || null, true); }}>
        <option value="">—</option>
        {(column.colOptions?.options ?? []).map((o) => <option key={o.title} value={o.title}>{o.title}</option>)}
      </select>
    );
  }
  const type = isNumeric(column) ? 'number' : column.uidt === 'Date' ? 'date' : column.uidt === 'DateTime' ? 'datetime-local' : column.uidt === 'Email' ? 'email' : 'text';
  const shown = type === 'datetime-local' ? text.replace(' ', 'T').slice(0, 16) : type === 'date' ? text.slice(0, 10) : text;
  return (
    <input ref={ref} aria-label={label} className="editor" type={type} value={shown} step={column.uidt === 'Number' ? 1 : 'any'}
      onChange={(e) => setText(e.target.value)} onKeyDown={onKeyDown} onBlur={() => finish(true)} />
  );
}

function valueOf(column: Column, text: string): unknown {
  if (column.uidt === 'DateTime' && text) return text.replace('T', ' ');
  return parseInput(column, text);
}
