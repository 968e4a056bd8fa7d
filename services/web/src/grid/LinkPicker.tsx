import { useEffect, useRef } from 'react';
import type { Column } from '../api';
import { LinkedRecords } from './LinkedRecords';

/** The record picker of a link cell: a modal `<dialog>` (focus stays in it, Esc closes it) around the linked list and its search. */
export function LinkPicker({ tableId, column, recordKey, rowLabel, onChanged, onClose }: {
  tableId: string; column: Column; recordKey: unknown; rowLabel: string; onChanged: () => void; onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => { dialog.current?.showModal(); }, []);
  return (
    <dialog ref={dialog} className="expanded link-picker" aria-labelledby="link-picker-title" onClose={onClose}>
      <header className="row">
        <h2 id="link-picker-title">{column.title} of {rowLabel}</h2>
        <span className="spacer" />
        <button type="button" onClick={() => dialog.current?.close()}>Close</button>
      </header>
      <LinkedRecords tableId={tableId} column={column} recordKey={recordKey} editable autoFocus onChanged={onChanged} />
    </dialog>
  );
}
