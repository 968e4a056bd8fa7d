import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { ApiError, integrations, type Integration, type IntegrationKind } from '../api';
import { IntegrationEditor, parseSettings } from './IntegrationForm';

/**
 * The workspace's integrations as `GET /api/v2/meta/integrations` answers
 * them; create, edit (name, settings), test connection and delete. The API
 * lets org creators and administrators manage integrations (the list itself
 * needs it): anyone else is told so and offered nothing.
 */
export function IntegrationsPage() {
  const [list, setList] = useState<Integration[] | null>(null);
  const [allowed, setAllowed] = useState(true);
  const [kinds, setKinds] = useState<IntegrationKind[]>([]);
  const [editing, setEditing] = useState<Integration | null>(null);
  const [title, setTitle] = useState('');
  const [kind, setKind] = useState('');
  const [config, setConfig] = useState('{}');
  const [error, setError] = useState('');
  const [formError, setFormError] = useState('');
  const load = useCallback(() => integrations.list().then(setList, (e: ApiError) => {
    setList([]);
    if (e.status === 403) setAllowed(false);
    setError(e.status === 403 ? 'Only organisation creators and administrators manage integrations.' : e.message);
  }), []);
  useEffect(() => {
    void load();
    integrations.kinds().then((k) => { setKinds(k); if (k[0]) setKind(`${k[0].type}/${k[0].sub_type}`); }, () => setKinds([]));
  }, [load]);
  const create = async (event: FormEvent) => {
    event.preventDefault();
    setFormError('');
    const settings = parseSettings(config, false);
    if (settings.error) { setFormError(settings.error); return; }
    const chosen = kinds.find((k) => `${k.type}/${k.sub_type}` === kind);
    if (!chosen) return;
    try {
      await integrations.create({ title, type: chosen.type, sub_type: chosen.sub_type, config: settings.value });
      setTitle(''); setConfig('{}');
      await load();
    } catch (e) { setFormError(e instanceof ApiError ? e.message : String(e)); }
  };
  const closeEditor = () => { setEditing(null); void load(); };
  return (
    <section aria-labelledby="integrations-title" className="page">
      <h1 id="integrations-title">Integrations</h1>
      <p>Connections of the workspace (databases, AI and other services), shared by its bases. Their settings are kept encrypted and are not shown here.</p>
      {error && <p className="error" role="alert">{error}</p>}
      {list === null ? <p>Loading…</p> : list.length === 0 ? (!error && <p>No integrations yet.</p>) : (
        <table className="data-table">
          <caption>Integrations</caption>
          <thead><tr><th scope="col">Title</th><th scope="col">Type</th><th scope="col">Kind</th><th scope="col">Enabled</th><th scope="col">Visibility</th>{allowed && <th scope="col">Actions</th>}</tr></thead>
          <tbody>
            {list.map((item) => (
              <tr key={item.id}>
                <th scope="row">{item.title}{item.is_default ? ' (default)' : ''}</th>
                <td>{item.type}</td>
                <td>{item.sub_type}</td>
                <td>{item.enabled ? 'yes' : 'no'}</td>
                <td>{item.is_private ? 'private' : 'shared'}</td>
                {allowed && <td className="actions"><button type="button" onClick={() => setEditing(item)}>Edit {item.title}</button></td>}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {editing && (
        <IntegrationEditor
          key={editing.id} item={editing} kind={kinds.find((k) => k.type === editing.type && k.sub_type === editing.sub_type)}
          save={(body) => integrations.update(editing.id, body)} test={() => integrations.callEndpoint(editing.id, 'testConnection')}
          remove={() => integrations.remove(editing.id)} onSaved={closeEditor} onDeleted={closeEditor} onCancel={() => setEditing(null)}
        />
      )}
      {allowed && kinds.length > 0 && (
        <form className="card" onSubmit={create} aria-labelledby="new-integration">
          <h2 id="new-integration">New integration</h2>
          <div className="inline">
            <label>Name<input required maxLength={128} value={title} onChange={(e) => setTitle(e.target.value)} /></label>
            <label>Kind<select value={kind} onChange={(e) => setKind(e.target.value)}>
              {kinds.map((k) => <option key={`${k.type}/${k.sub_type}`} value={`${k.type}/${k.sub_type}`}>{k.type}: {k.title}</option>)}
            </select></label>
          </div>
          <label>Settings (JSON, checked by the server against the kind's schema)<textarea rows={5} value={config} onChange={(e) => setConfig(e.target.value)} /></label>
          <div className="inline"><button type="submit" className="primary">Create integration</button></div>
          {formError && <p className="error" role="alert">{formError}</p>}
        </form>
      )}
    </section>
  );
}
