import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { ApiError, bases, tables, type Base, type Table } from '../api';
import { navigate } from '../router';
import { COLUMN_TYPES, isSelectUidt } from '../columns';
import type { Me } from '../App';
import { canEditSchema } from '../roles';

interface DraftColumn { title: string; uidt: string; options: string; }

/** One base: its tables (list, create with columns, rename, delete). */
export function BasePage({ baseId, me }: { baseId: string; me: Me }) {
  const [base, setBase] = useState<Base | null>(null);
  const [list, setList] = useState<Table[] | null>(null);
  const [role, setRole] = useState('viewer');
  const [title, setTitle] = useState('');
  const [columns, setColumns] = useState<DraftColumn[]>([{ title: 'Title', uidt: 'SingleLineText', options: '' }]);
  const [error, setError] = useState('');
  const load = useCallback(() => tables.list(baseId).then(setList, (e: ApiError) => setError(e.message)), [baseId]);
  useEffect(() => {
    void load();
    bases.get(baseId).then(setBase, (e: ApiError) => setError(e.message));
    bases.myRole(baseId, me.email).then(setRole, () => setRole('viewer'));
  }, [baseId, load, me.email]);
  const run = async (action: () => Promise<unknown>) => {
    setError('');
    try { await action(); await load(); } catch (e) { setError(e instanceof ApiError ? e.message : String(e)); }
  };
  const create = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const cols = columns.filter((c) => c.title.trim()).map((c) => ({ title: c.title.trim(), uidt: c.uidt, options: c.options.split(',').map((o) => o.trim()).filter(Boolean) }));
      const table = await tables.create(baseId, title, cols);
      navigate(`/bases/${baseId}/tables/${table.id}`);
    });
  };
  const setColumn = (i: number, patch: Partial<DraftColumn>) => setColumns(columns.map((c, j) => (j === i ? { ...c, ...patch } : c)));
  const editable = canEditSchema(role);
  return (
    <section aria-labelledby="base-title" className="page">
      <p><a href="/" onClick={(e) => { e.preventDefault(); navigate('/'); }}>← Bases</a></p>
      <h1 id="base-title">{base?.title ?? 'Base'} <span className="role">({role})</span></h1>
      {error && <p className="error" role="alert">{error}</p>}
      <h2>Tables</h2>
      {list === null ? <p>Loading…</p> : list.length === 0 ? <p>No tables yet.</p> : (
        <ul className="cards">
          {list.map((table) => (
            <li key={table.id} className="card row">
              <a href={`/bases/${baseId}/tables/${table.id}`} onClick={(e) => { e.preventDefault(); navigate(`/bases/${baseId}/tables/${table.id}`); }}>{table.title}</a>
              <span className="spacer" />
              {editable && <button type="button" onClick={() => { const t = prompt('Rename table', table.title); if (t) void run(() => tables.rename(table.id, t)); }}>Rename</button>}
              {editable && <button type="button" className="danger" onClick={() => { if (confirm(`Delete table "${table.title}"?`)) void run(() => tables.remove(table.id)); }}>Delete</button>}
            </li>
          ))}
        </ul>
      )}
      {editable && (
        <form className="card create-table" onSubmit={create} aria-labelledby="new-table">
          <h2 id="new-table">New table</h2>
          <label>Table name<input name="table-title" required value={title} onChange={(e) => setTitle(e.target.value)} /></label>
          <fieldset>
            <legend>Columns</legend>
            {columns.map((column, i) => (
              <div className="inline" key={i}>
                <label>Column {i + 1} name<input value={column.title} onChange={(e) => setColumn(i, { title: e.target.value })} /></label>
                <label>Type<select value={column.uidt} onChange={(e) => setColumn(i, { uidt: e.target.value })}>
                  {COLUMN_TYPES.map((t) => <option key={t.uidt} value={t.uidt}>{t.label}</option>)}
                </select></label>
                {isSelectUidt(column.uidt) && (
                  <label>Options (comma-separated)<input value={column.options} onChange={(e) => setColumn(i, { options: e.target.value })} /></label>
                )}
                <button type="button" aria-label={`Remove column ${i + 1}`} onClick={() => setColumns(columns.filter((_, j) => j !== i))}>✕</button>
              </div>
            ))}
            <button type="button" onClick={() => setColumns([...columns, { title: '', uidt: 'SingleLineText', options: '' }])}>Add column</button>
          </fieldset>
          <button type="submit" className="primary">Create table</button>
        </form>
      )}
    </section>
  );
}
