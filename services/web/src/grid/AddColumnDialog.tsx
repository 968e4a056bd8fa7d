import { useState, type FormEvent } from 'react';
import { ApiError, type Column } from '../api';
import { COLUMN_TYPES, isSelectUidt } from '../columns';
import { RELATION_TYPES } from '../relations';
import type { RelationDraft } from '../relations-api';
import { NO_CHOICE, RelationFields, draftOf, type RelationChoice } from './RelationFields';

export interface NewColumn { title: string; uidt: string; options?: string[]; formula?: string; relation?: RelationDraft }

const isRelationChoice = (uidt: string) => RELATION_TYPES.some((t) => t.uidt === uidt);

/**
 * Adds a column: name, type, options for selects, the formula, or a
 * relation (links: the other table and kind; lookup and rollup: the link
 * field, the linked table's field, the function); the server's message is
 * shown when it refuses.
 */
export function AddColumnDialog({ baseId, columns, onClose, onCreate }: {
  baseId: string; /** The table's columns (its link fields for lookups and rollups). */ columns: Column[];
  onClose: () => void; onCreate: (c: NewColumn) => Promise<void>;
}) {
  const [title, setTitle] = useState('');
  const [uidt, setUidt] = useState('SingleLineText');
  const [options, setOptions] = useState('');
  const [formula, setFormula] = useState('');
  const [choice, setChoice] = useState<RelationChoice>(NO_CHOICE);
  const [error, setError] = useState('');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError('');
    const relation = isRelationChoice(uidt) ? draftOf(uidt, choice) : undefined;
    if (typeof relation === 'string') { setError(relation); return; }
    try {
      await onCreate({ title, uidt, options: options.split(',').map((o) => o.trim()).filter(Boolean), formula, relation });
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    }
  };
  return (
    <div className="panel" role="region" aria-label="Add column">
      <form className="inline" onSubmit={submit}>
        <label>Column name<input name="column-title" required value={title} onChange={(e) => setTitle(e.target.value)} autoFocus /></label>
        <label>Column type<select name="column-type" value={uidt} onChange={(e) => { setUidt(e.target.value); setChoice(NO_CHOICE); }}>
          {COLUMN_TYPES.map((t) => <option key={t.uidt} value={t.uidt}>{t.label}</option>)}
          {RELATION_TYPES.map((t) => <option key={t.uidt} value={t.uidt}>{t.label}</option>)}
        </select></label>
        {isSelectUidt(uidt) && <label>Options (comma-separated)<input name="column-options" value={options} onChange={(e) => setOptions(e.target.value)} /></label>}
        {uidt === 'Formula' && <label>Formula (fields in braces: {'{Qty} * 2'})<input name="column-formula" value={formula} onChange={(e) => setFormula(e.target.value)} /></label>}
        {isRelationChoice(uidt) && <RelationFields baseId={baseId} uidt={uidt} columns={columns} choice={choice} onChange={setChoice} />}
        <button type="submit" className="primary">Save column</button>
        <button type="button" onClick={onClose}>Cancel</button>
      </form>
      {error && <p className="error" role="alert">{error}</p>}
    </div>
  );
}
