import { useState, type FormEvent } from 'react';
import { ApiError, type Column, type SelectOption } from '../api';
import { isSelectUidt } from '../columns';
import { isRelationColumn } from '../relations';
import { RelationSummary } from './RelationFields';

const COLOURS = ['#cfdffe', '#d0f1fd', '#c2f5e9', '#ffdaf6', '#ffdce5', '#fee2d5', '#ffeab6', '#d1f7c4', '#ede2fe', '#eeeeee'];

/**
 * Edits a column: its name and, for a select, its options (title and colour;
 * an option keeps its id). A link, lookup or rollup is renamed only (the API
 * keeps its relation): the dialog says what it reads.
 */
export function EditColumnDialog({ column, columns, onClose, onSave }: {
  column: Column; /** The table's columns (a lookup's link field). */ columns: Column[]; onClose: () => void;
  onSave: (patch: { title: string; colOptions?: { options: SelectOption[] } }) => Promise<void>;
}) {
  const select = isSelectUidt(column.uidt);
  const [title, setTitle] = useState(column.title);
  const [options, setOptions] = useState<SelectOption[]>(() => (column.colOptions?.options ?? []).map((o) => ({ id: o.id, title: o.title, color: o.color ?? COLOURS[0] })));
  const [error, setError] = useState('');
  const setOption = (i: number, patch: Partial<SelectOption>) => setOptions(options.map((o, j) => (j === i ? { ...o, ...patch } : o)));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError('');
    try {
      await onSave(select ? { title, colOptions: { options: options.filter((o) => o.title.trim()).map((o) => ({ ...o, title: o.title.trim() })) } } : { title });
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    }
  };
  return (
    <div className="panel" role="region" aria-label={`Edit column ${column.title}`}>
      <form onSubmit={submit}>
        <div className="inline">
          <label>Column name<input required value={title} onChange={(e) => setTitle(e.target.value)} autoFocus /></label>
        </div>
        {isRelationColumn(column) && <RelationSummary column={column} columns={columns} />}
        {select && (
          <fieldset>
            <legend>Options</legend>
            {options.map((option, i) => (
              <div className="inline" key={option.id ?? `new-${i}`}>
                <label>Option {i + 1}<input value={option.title} onChange={(e) => setOption(i, { title: e.target.value })} /></label>
                <label>Colour of option {i + 1}<input type="color" value={option.color} onChange={(e) => setOption(i, { color: e.target.value })} /></label>
                <button type="button" aria-label={`Remove option ${i + 1}`} onClick={() => setOptions(options.filter((_, j) => j !== i))}>✕</button>
              </div>
            ))}
            <button type="button" onClick={() => setOptions([...options, { title: '', color: COLOURS[options.length % COLOURS.length] }])}>Add option</button>
          </fieldset>
        )}
        <div className="inline">
          <button type="submit" className="primary">Save changes</button>
          <button type="button" onClick={onClose}>Cancel</button>
        </div>
      </form>
      {error && <p className="error" role="alert">{error}</p>}
    </div>
  );
}
