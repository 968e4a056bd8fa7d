import { useState, type FormEvent } from 'react';
import { ApiError } from '../api';
import { COLUMN_TYPES, isSelectUidt } from '../columns';

/** Adds a column: name, type, options for selects; the server's message is shown when it refuses. */
export function AddColumnDialog({ onClose, onCreate }: { onClose: () => void; onCreate: (c: { title: string; uidt: string; options?: string[]; formula?: string }) => Promise<void> }) {
  const [title, setTitle] = useState('');
  const [uidt, setUidt] = useState('SingleLineText');
  const [options, setOptions] = useState('');
  const [formula, setFormula] = useState('');
  const [error, setError] = useState('');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await onCreate({ title, uidt, options: options.split(',').map((o) => o.trim()).filter(Boolean), formula });
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    }
  };
  return (
    <div className="panel" role="region" aria-label="Add column">
      <form className="inline" onSubmit={submit}>
        <label>Column name<input name="column-title" required value={title} onChange={(e) => setTitle(e.target.value)} autoFocus /></label>
        <label>Column type<select name="column-type" value={uidt} onChange={(e) => setUidt(e.target.value)}>
          {COLUMN_TYPES.map((t) => <option key={t.uidt} value={t.uidt}>{t.label}</option>)}
        </select></label>
        {isSelectUidt(uidt) && <label>Options (comma-separated)<input name="column-options" value={options} onChange={(e) => setOptions(e.target.value)} /></label>}
        {uidt === 'Formula' && <label>Formula (fields in braces: {'{Qty} * 2'})<input name="column-formula" value={formula} onChange={(e) => setFormula(e.target.value)} /></label>}
        <button type="submit" className="primary">Save column</button>
        <button type="button" onClick={onClose}>Cancel</button>
      </form>
      {error && <p className="error" role="alert">{error}</p>}
    </div>
  );
}
