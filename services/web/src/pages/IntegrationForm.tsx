import { useState, type FormEvent } from 'react';
import { ApiError, type Integration, type IntegrationKind } from '../api';

/** Settings typed as JSON text: an object, or undefined when left empty (and empty is allowed). */
export function parseSettings(text: string, emptyAllowed: boolean): { value?: Record<string, unknown>; error?: string } {
  if (emptyAllowed && text.trim() === '') return {};
  let parsed: unknown;
  try { parsed = JSON.parse(text); } catch { return { error: 'The settings are not valid JSON.' }; }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { error: 'The settings must be a JSON object.' };
  return { value: parsed as Record<string, unknown> };
}

/**
 * One integration's editor: its name and settings (the stored settings are
 * never shown; what is typed is merged into them by the API, empty keeps
 * them), a connection test when its kind has one, and delete.
 */
export function IntegrationEditor({ item, kind, onSaved, onDeleted, onCancel, save, test, remove }: {
  item: Integration; kind?: IntegrationKind;
  onSaved: () => void; onDeleted: () => void; onCancel: () => void;
  save: (body: { title: string; config?: Record<string, unknown> }) => Promise<unknown>;
  test: () => Promise<unknown>; remove: () => Promise<unknown>;
}) {
  const [title, setTitle] = useState(item.title);
  const [config, setConfig] = useState('');
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');
  const run = async (action: () => Promise<void>) => {
    setError(''); setNotice('');
    try { await action(); } catch (e) { setError(e instanceof ApiError ? e.message : String(e)); }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const settings = parseSettings(config, true);
    if (settings.error) { setError(settings.error); return; }
    void run(async () => { await save({ title, ...(settings.value ? { config: settings.value } : {}) }); onSaved(); });
  };
  const testConnection = () => run(async () => {
    const r = await test() as { ms?: number } | null;
    setNotice(`Connection OK${typeof r?.ms === 'number' ? ` (${r.ms} ms)` : ''}.`);
  });
  const del = () => {
    if (confirm(`Delete the integration "${item.title}"?`)) void run(async () => { await remove(); onDeleted(); });
  };
  const headingId = `edit-integration-${item.id}`;
  return (
    <form className="card" onSubmit={submit} aria-labelledby={headingId}>
      <h2 id={headingId}>Edit integration {item.title}</h2>
      <label>Name<input required maxLength={128} value={title} onChange={(e) => setTitle(e.target.value)} /></label>
      <label>New settings (JSON, merged into the stored ones; empty keeps them)<textarea rows={4} value={config} onChange={(e) => setConfig(e.target.value)} /></label>
      <div className="inline">
        <button type="submit" className="primary">Save integration</button>
        {kind?.endpoints.includes('testConnection') && <button type="button" onClick={() => void testConnection()}>Test connection</button>}
        <button type="button" className="danger" onClick={del}>Delete integration</button>
        <button type="button" onClick={onCancel}>Cancel</button>
      </div>
      {notice && <p className="notice" role="status">{notice}</p>}
      {error && <p className="error" role="alert">{error}</p>}
    </form>
  );
}
