import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { ApiError, bases, type Base } from '../api';
import { navigate } from '../router';

/** The signed-in user's bases: list, create, rename, delete. */
export function BasesPage() {
  const [list, setList] = useState<Base[] | null>(null);
  const [title, setTitle] = useState('');
  const [error, setError] = useState('');
  const load = useCallback(() => bases.list().then(setList, (e: ApiError) => setError(e.message)), []);
  useEffect(() => { void load(); }, [load]);
  const run = async (action: () => Promise<unknown>) => {
    setError('');
    try { await action(); await load(); } catch (e) { setError(e instanceof ApiError ? e.message : String(e)); }
  };
  const create = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => { const base = await bases.create(title); setTitle(''); navigate(`/bases/${base.id}`); });
  };
  return (
    <section aria-labelledby="bases-title" className="page">
      <h1 id="bases-title">Bases</h1>
      <form className="inline" onSubmit={create}>
        <label>New base<input name="base-title" required value={title} onChange={(e) => setTitle(e.target.value)} /></label>
        <button type="submit" className="primary">Create base</button>
      </form>
      {error && <p className="error" role="alert">{error}</p>}
      {list === null ? <p>Loading…</p> : list.length === 0 ? <p>No bases yet.</p> : (
        <ul className="cards">
          {list.map((base) => (
            <li key={base.id} className="card row">
              <a href={`/bases/${base.id}`} onClick={(e) => { e.preventDefault(); navigate(`/bases/${base.id}`); }}>{base.title}</a>
              <span className="spacer" />
              <button type="button" onClick={() => { const t = prompt('Rename base', base.title); if (t) void run(() => bases.rename(base.id, t)); }}>Rename</button>
              <button type="button" className="danger" onClick={() => { if (confirm(`Delete base "${base.title}" and all its tables?`)) void run(() => bases.remove(base.id)); }}>Delete</button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
