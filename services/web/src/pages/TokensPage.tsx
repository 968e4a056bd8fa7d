import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { ApiError, apiTokens, type ApiToken } from '../api';

/** The caller's API tokens: list, create (the token is shown once, with a copy button), revoke. */
export function TokensPage() {
  const [list, setList] = useState<ApiToken[] | null>(null);
  const [description, setDescription] = useState('');
  const [created, setCreated] = useState<{ description: string; token: string } | null>(null);
  const [copied, setCopied] = useState('');
  const [error, setError] = useState('');
  const load = useCallback(() => apiTokens.list().then(setList, (e: ApiError) => setError(e.message)), []);
  useEffect(() => { void load(); }, [load]);
  const run = async (action: () => Promise<unknown>) => {
    setError('');
    try { await action(); await load(); } catch (e) { setError(e instanceof ApiError ? e.message : String(e)); }
  };
  const create = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const token = await apiTokens.create(description);
      setCreated({ description, token: token.token });
      setCopied('');
      setDescription('');
    });
  };
  const copy = async () => {
    if (!created) return;
    try { await navigator.clipboard.writeText(created.token); setCopied('Copied to the clipboard.'); } catch { setCopied('Copy refused by the browser: select the token and copy it.'); }
  };
  return (
    <section aria-labelledby="tokens-title" className="page">
      <h1 id="tokens-title">API tokens</h1>
      <p>A token acts as you on the API (header <code>xc-token</code>). Its value is shown once, when it is created.</p>
      {error && <p className="error" role="alert">{error}</p>}
      {created && (
        <div className="card" role="region" aria-label="New token">
          <p>The token “{created.description}” — copy it now, it will not be shown again:</p>
          <p className="inline"><output className="token-value" aria-label="Token value">{created.token}</output>
            <button type="button" onClick={() => void copy()}>Copy token</button></p>
          {copied && <p className="notice" role="status">{copied}</p>}
          <button type="button" onClick={() => { setCreated(null); setCopied(''); }}>Done</button>
        </div>
      )}
      {list === null ? <p>Loading…</p> : list.length === 0 ? <p>No tokens yet.</p> : (
        <table className="data-table">
          <caption>Your tokens</caption>
          <thead><tr><th scope="col">Description</th><th scope="col">Created</th><th scope="col">Actions</th></tr></thead>
          <tbody>
            {list.map((token) => (
              <tr key={token.id}>
                <th scope="row">{token.description ?? ''}</th>
                <td>{new Date(token.created_at).toLocaleString()}</td>
                <td><button type="button" className="danger" onClick={() => { if (confirm(`Revoke the token "${token.description ?? token.id}"?`)) void run(() => apiTokens.revoke(token.id)); }}>Revoke {token.description ?? token.id}</button></td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form className="card" onSubmit={create} aria-labelledby="new-token">
        <h2 id="new-token">New token</h2>
        <label>Description<input required maxLength={255} value={description} onChange={(e) => setDescription(e.target.value)} /></label>
        <button type="submit" className="primary">Create token</button>
      </form>
    </section>
  );
}
