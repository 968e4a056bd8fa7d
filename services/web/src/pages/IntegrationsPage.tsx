import { useEffect, useState } from 'react';
import { ApiError, integrations, type Integration } from '../api';

/** The workspace's integrations as `GET /api/v2/meta/integrations` answers them (org creators and above). */
export function IntegrationsPage() {
  const [list, setList] = useState<Integration[] | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    integrations.list().then(setList, (e: ApiError) => {
      setList([]);
      setError(e.status === 403 ? 'Only organisation creators and administrators manage integrations.' : e.message);
    });
  }, []);
  return (
    <section aria-labelledby="integrations-title" className="page">
      <h1 id="integrations-title">Integrations</h1>
      <p>Connections of the workspace (databases, AI and other services), shared by its bases. Their settings are kept encrypted and are not shown here.</p>
      {error && <p className="error" role="alert">{error}</p>}
      {list === null ? <p>Loading…</p> : list.length === 0 ? (!error && <p>No integrations yet.</p>) : (
        <table className="data-table">
          <caption>Integrations</caption>
          <thead><tr><th scope="col">Title</th><th scope="col">Type</th><th scope="col">Kind</th><th scope="col">Enabled</th><th scope="col">Visibility</th></tr></thead>
          <tbody>
            {list.map((item) => (
              <tr key={item.id}>
                <th scope="row">{item.title}{item.is_default ? ' (default)' : ''}</th>
                <td>{item.type}</td>
                <td>{item.sub_type}</td>
                <td>{item.enabled ? 'yes' : 'no'}</td>
                <td>{item.is_private ? 'private' : 'shared'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
