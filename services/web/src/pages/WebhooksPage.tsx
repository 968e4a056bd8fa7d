import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { ApiError, bases, hooks, tables, type Hook, type HookDraft, type HookLog, type Table } from '../api';
import { navigate } from '../router';
import type { Me } from '../App';
import { canEditSchema } from '../roles';

const OPERATIONS = ['insert', 'update', 'delete', 'bulkInsert', 'bulkUpdate', 'bulkDelete'];
const EMPTY: HookDraft = { title: '', event: 'after', operation: 'insert', url: '', method: 'POST', active: true };

/** The URL and method of a hook's notification (stored as an object or its JSON text). */
export function hookTarget(hook: Hook): { method: string; url: string } {
  let n = hook.notification;
  if (typeof n === 'string') { try { n = JSON.parse(n) as Hook['notification']; } catch { n = undefined; } }
  const payload = typeof n === 'object' && n ? n.payload : undefined;
  return { method: (payload?.method ?? 'POST').toUpperCase(), url: payload?.path ?? '' };
}

function draftOf(hook: Hook): HookDraft {
  const target = hookTarget(hook);
  return { title: hook.title, event: hook.event === 'before' ? 'before' : 'after', operation: Array.isArray(hook.operation) ? hook.operation[0] : hook.operation, url: target.url, method: target.method, active: hook.active };
}

function logStatus(log: HookLog): string {
  const response = log.response as { status?: number } | null | undefined;
  if (log.error_message) return `failed: ${log.error_message}`;
  return response?.status !== undefined ? `HTTP ${response.status}` : 'no response';
}

/** Webhooks of one table: list, create, edit, test, delivery logs, activate, delete (creators and owners; others read the list). */
export function WebhooksPage({ baseId, tableId, me }: { baseId: string; tableId: string; me: Me }) {
  const [table, setTable] = useState<Table | null>(null);
  const [list, setList] = useState<Hook[] | null>(null);
  const [role, setRole] = useState<string | null>(null);
  const [draft, setDraft] = useState<HookDraft>(EMPTY);
  /** The hook the form edits (none: the form creates one). */
  const [editing, setEditing] = useState<Hook | null>(null);
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');
  const [logsOf, setLogsOf] = useState<{ hook: Hook; logs: HookLog[] } | null>(null);
  const load = useCallback(() => hooks.list(tableId).then(setList, (e: ApiError) => setError(e.message)), [tableId]);
  useEffect(() => {
    void load();
    tables.get(tableId).then(setTable, (e: ApiError) => setError(e.message));
    bases.myRole(baseId, me.email).then(setRole, () => setRole('viewer'));
  }, [baseId, tableId, load, me.email]);
  const run = async (action: () => Promise<unknown>) => {
    setError(''); setNotice('');
    try { await action(); } catch (e) { setError(e instanceof ApiError ? e.message : String(e)); }
  };
  const showLogs = (hook: Hook) => run(async () => setLogsOf({ hook, logs: await hooks.logs(hook.id) }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      if (editing) await hooks.update(editing.id, draft);
      else await hooks.create(tableId, draft);
      setNotice(editing ? 'Webhook saved.' : 'Webhook created.');
      setDraft(EMPTY); setEditing(null);
      await load();
    });
  };
  const edit = (hook: Hook) => { setEditing(hook); setDraft(draftOf(hook)); setNotice(''); setError(''); };
  const cancelEdit = () => { setEditing(null); setDraft(EMPTY); };
  const set = (patch: Partial<HookDraft>) => setDraft({ ...draft, ...patch });
  const manage = role !== null && canEditSchema(role);
  const tableUrl = `/bases/${baseId}/tables/${tableId}`;
  return (
    <section aria-labelledby="hooks-title" className="page">
      <p><a href={tableUrl} onClick={(e) => { e.preventDefault(); navigate(tableUrl); }}>← {table?.title ?? 'Table'}</a></p>
      <h1 id="hooks-title">Webhooks of {table?.title ?? 'the table'}</h1>
      {error && <p className="error" role="alert">{error}</p>}
      {notice && <p className="notice" role="status">{notice}</p>}
      {list === null ? <p>Loading…</p> : list.length === 0 ? <p>No webhooks yet.</p> : (
        <table className="data-table">
          <caption>Webhooks</caption>
          <thead><tr><th scope="col">Title</th><th scope="col">When</th><th scope="col">Target</th><th scope="col">Active</th>{manage && <th scope="col">Actions</th>}</tr></thead>
          <tbody>
            {list.map((hook) => {
              const target = hookTarget(hook);
              return (
                <tr key={hook.id}>
                  <th scope="row">{hook.title}</th>
                  <td>{hook.event} {Array.isArray(hook.operation) ? hook.operation.join(', ') : hook.operation}</td>
                  <td className="wrap">{target.method} {target.url}</td>
                  <td>{manage
                    ? <label className="check-label"><input type="checkbox" checked={hook.active} onChange={(e) => void run(async () => { await hooks.setActive(hook.id, e.target.checked); await load(); })} /> <span className="sr-only">Active {hook.title}</span></label>
                    : hook.active ? 'yes' : 'no'}</td>
                  {manage && (
                    <td className="actions">
                      <button type="button" onClick={() => void run(async () => { const r = await hooks.test(tableId, draftOf(hook), hook.id); setNotice(r.msg); await showLogs(hook); })}>Test {hook.title}</button>
                      <button type="button" onClick={() => edit(hook)}>Edit {hook.title}</button>
                      <button type="button" onClick={() => void showLogs(hook)}>Logs of {hook.title}</button>
                      <button type="button" className="danger" onClick={() => { if (confirm(`Delete the webhook "${hook.title}"?`)) void run(async () => { await hooks.remove(hook.id); if (logsOf?.hook.id === hook.id) setLogsOf(null); await load(); }); }}>Delete {hook.title}</button>
                    </td>
                  )}
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {logsOf && (
        <section className="card" aria-labelledby="logs-title">
          <h2 id="logs-title">Delivery log of {logsOf.hook.title}</h2>
          <button type="button" onClick={() => void showLogs(logsOf.hook)}>Refresh log</button>
          {logsOf.logs.length === 0 ? <p>No deliveries yet.</p> : (
            <ul className="log-list">
              {logsOf.logs.map((log) => (
                <li key={log.id}>
                  <span>{log.created_at ? new Date(log.created_at).toLocaleString() : ''}</span>{' '}
                  <span>{String(log.operation ?? '')}{log.test_call ? ' (test)' : ''}</span>{' '}
                  <strong>{logStatus(log)}</strong>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
      {manage && (
        <form className="card" onSubmit={submit} aria-labelledby="hook-form-title">
          <h2 id="hook-form-title">{editing ? `Edit webhook ${editing.title}` : 'New webhook'}</h2>
          <label>Title<input required value={draft.title} onChange={(e) => set({ title: e.target.value })} /></label>
          <label>URL<input type="url" required value={draft.url} onChange={(e) => set({ url: e.target.value })} placeholder="https://example.com/hook" /></label>
          <div className="inline">
            <label>Method<select value={draft.method} onChange={(e) => set({ method: e.target.value })}>{['POST', 'PUT', 'PATCH', 'GET'].map((m) => <option key={m}>{m}</option>)}</select></label>
            <label>Event<select value={draft.event} onChange={(e) => set({ event: e.target.value as HookDraft['event'] })}><option value="after">after</option><option value="before">before</option></select></label>
            <label>Operation<select value={draft.operation} onChange={(e) => set({ operation: e.target.value })}>{OPERATIONS.map((o) => <option key={o}>{o}</option>)}</select></label>
            <label className="check-label"><input type="checkbox" checked={draft.active} onChange={(e) => set({ active: e.target.checked })} /> Active</label>
          </div>
          <div className="inline">
            <button type="button" onClick={() => void run(async () => { const r = await hooks.test(tableId, draft); setNotice(r.msg); })}>Test webhook</button>
            <button type="submit" className="primary">{editing ? 'Save webhook' : 'Create webhook'}</button>
            {editing && <button type="button" onClick={cancelEdit}>Cancel</button>}
          </div>
        </form>
      )}
    </section>
  );
}
