import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ApiError, comments as commentsApi, records, storage, type Column, type Comment, type Row } from '../api';
import { cellText, isEditable, isNumeric, parseInput } from '../columns';
import { isLinkUidt } from '../relations';
import { LinkedSection } from './LinkedRecords';

/** A record in a dialog: every field with its editor, its attachments (upload, preview), its linked records and its comments. */
export function ExpandedRecord({ tableId, columns, pk, row: initial, editable, commentable, resolvable, meId, onClose, onSaved }: {
  tableId: string; columns: Column[]; pk: string; row: Row; editable: boolean; commentable: boolean;
  /** Creators and owners may resolve comments. */ resolvable: boolean; /** The caller: only a comment's author may edit it. */ meId: string;
  onClose: () => void; onSaved: (row: Row) => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [row, setRow] = useState<Row>(initial);
  const [draft, setDraft] = useState<Record<string, string>>({});
  const [thread, setThread] = useState<Comment[]>([]);
  const [comment, setComment] = useState('');
  const [editingComment, setEditingComment] = useState<{ id: string; text: string } | null>(null);
  const [error, setError] = useState('');
  const [status, setStatus] = useState('');
  const key = initial[pk];

  useEffect(() => {
    dialog.current?.showModal();
    records.get(tableId, key).then(setRow, (e: ApiError) => setError(e.message));
    commentsApi.list(tableId, key).then(setThread, () => setThread([]));
  }, [tableId, key]);

  const fail = (e: unknown) => setError(e instanceof ApiError ? e.message : String(e));

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const byTitle = new Map(columns.map((c) => [c.title, c]));
    const body: Row = { [pk]: key };
    for (const [title, text] of Object.entries(draft)) {
      const column = byTitle.get(title);
      if (column) body[title] = column.uidt === 'Checkbox' ? text === 'true' : parseInput(column, column.uidt === 'DateTime' ? text.replace('T', ' ') : text);
    }
    try {
      await records.update(tableId, body);
      const fresh = await records.get(tableId, key);
      setRow(fresh); setDraft({}); setStatus('Saved'); onSaved(fresh);
    } catch (e) { fail(e); }
  };

  const upload = async (column: Column, files: FileList | null) => {
    if (!files?.length) return;
    try {
      const uploaded = await storage.upload(Array.from(files));
      const existing = Array.isArray(row[column.title]) ? (row[column.title] as unknown[]) : [];
      await records.update(tableId, { [pk]: key, [column.title]: [...existing, ...uploaded] });
      const fresh = await records.get(tableId, key);
      setRow(fresh); setStatus(`Uploaded ${files.length} file(s)`); onSaved(fresh);
    } catch (e) { fail(e); }
  };

  const commentAction = async (action: () => Promise<unknown>) => {
    try {
      await action();
      setThread(await commentsApi.list(tableId, key));
    } catch (e) { fail(e); }
  };

  const saveComment = (event: FormEvent) => {
    event.preventDefault();
    const edit = editingComment;
    if (edit) void commentAction(async () => { await commentsApi.update(edit.id, edit.text); setEditingComment(null); });
  };

  const addComment = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await commentsApi.add(tableId, key, comment);
      setComment('');
      setThread(await commentsApi.list(tableId, key));
    } catch (e) { fail(e); }
  };

  const valueText = (column: Column) => {
    if (draft[column.title] !== undefined) return draft[column.title];
    const value = row[column.title];
    if (value === null || value === undefined) return '';
    return typeof value === 'object' ? JSON.stringify(value) : String(value);
  };

  return (
    <dialog ref={dialog} className="expanded" aria-labelledby="record-title" onClose={onClose}>
      <header className="row">
        <h2 id="record-title">Record {String(key)}</h2>
        <span className="spacer" />
        <button type="button" onClick={() => dialog.current?.close()}>Close</button>
      </header>
      {error && <p className="error" role="alert">{error}</p>}
      {status && <p className="notice" role="status">{status}</p>}
      <form onSubmit={save} className="fields">
        {columns.map((column) => {
          const id = `field-${column.id}`;
          const canEdit = editable && isEditable(column);
          if (isLinkUidt(column.uidt)) return null; // listed under "Linked records"
          if (column.uidt === 'Attachment') {
            const files = Array.isArray(row[column.title]) ? (row[column.title] as { title?: string; mimetype?: string; signedPath?: string; signedUrl?: string }[]) : [];
            return (
              <div className="field" key={column.id}>
                <span className="field-label" id={`${id}-label`}>{column.title}</span>
                <ul className="files" aria-labelledby={`${id}-label`}>
                  {files.map((f, i) => {
                    const href = f.signedUrl ?? (f.signedPath ? `/${f.signedPath.replace(/^\/+/, '')}` : undefined);
                    return (
                      <li key={i}>
                        {href && f.mimetype?.startsWith('image/') && <img src={href} alt={`Preview of ${f.title ?? 'attachment'}`} className="thumb" />}
                        {href ? <a href={href} download={f.title}>{f.title ?? 'file'}</a> : <span>{f.title ?? 'file'}</span>}
                      </li>
                    );
                  })}
                </ul>
                {editable && <label className="upload">Attach files<input type="file" multiple onChange={(e) => void upload(column, e.target.files)} /></label>}
              </div>
            );
          }
          if (!canEdit) {
            return (
              <div className="field" key={column.id}>
                <span className="field-label">{column.title}</span>
                <span className="field-value">{cellText(column, row[column.title])}</span>
              </div>
            );
          }
          const set = (text: string) => setDraft({ ...draft, [column.title]: text });
          let input;
          if (column.uidt === 'Checkbox') {
            input = <input id={id} type="checkbox" checked={draft[column.title] !== undefined ? draft[column.title] === 'true' : !!row[column.title]} onChange={(e) => set(String(e.target.checked))} />;
          } else if (column.uidt === 'SingleSelect') {
            input = (
              <select id={id} value={valueText(column)} onChange={(e) => set(e.target.value)}>
                <option value="">—</option>
                {(column.colOptions?.options ?? []).map((o) => <option key={o.title} value={o.title}>{o.title}</option>)}
              </select>
            );
          } else if (column.uidt === 'LongText' || column.uidt === 'JSON') {
            input = <textarea id={id} value={valueText(column)} onChange={(e) => set(e.target.value)} rows={3} />;
          } else {
            const type = isNumeric(column) ? 'number' : column.uidt === 'Date' ? 'date' : column.uidt === 'DateTime' ? 'datetime-local' : 'text';
            const text = valueText(column);
            input = <input id={id} type={type} step="any" value={type === 'date' ? text.slice(0, 10) : type === 'datetime-local' ? text.replace(' ', 'T').slice(0, 16) : text} onChange={(e) => set(e.target.value)} />;
          }
          return (
            <div className="field" key={column.id}>
              <label htmlFor={id} className="field-label">{column.title}</label>
              {input}
            </div>
          );
        })}
        {editable && <button type="submit" className="primary" disabled={Object.keys(draft).length === 0}>Save record</button>}
      </form>
      <LinkedSection tableId={tableId} columns={columns} recordKey={key} editable={editable}
        onChanged={() => records.get(tableId, key).then((fresh) => { setRow(fresh); onSaved(fresh); }, fail)} />
      <section aria-labelledby="comments-title" className="comments">
        <h3 id="comments-title">Comments</h3>
        {thread.length === 0 ? <p>No comments.</p> : (
          <ol className="thread">
            {thread.map((c, i) => (
              <li key={c.id} className={c.resolved_by ? 'resolved' : undefined}>
                <span className="author">{c.created_by_email ?? c.created_by ?? ''}</span>{' '}
                {editingComment?.id === c.id ? (
                  <form onSubmit={saveComment} className="inline">
                    <label>Edit comment {i + 1}<textarea value={editingComment.text} onChange={(e) => setEditingComment({ id: c.id, text: e.target.value })} rows={2} required /></label>
                    <button type="submit">Save comment</button>
                    <button type="button" onClick={() => setEditingComment(null)}>Cancel edit</button>
                  </form>
                ) : <span className="comment-text">{c.comment}</span>}
                {c.is_edited && <span className="author"> (edited)</span>}
                {c.resolved_by && <span className="author"> · resolved{c.resolved_by_email ? ` by ${c.resolved_by_email}` : ''}</span>}
                {commentable && c.created_by === meId && editingComment?.id !== c.id && (
                  <button type="button" className="link-button" onClick={() => setEditingComment({ id: c.id, text: c.comment })}>Edit comment {i + 1}</button>
                )}
                {resolvable && (
                  <button type="button" className="link-button" onClick={() => void commentAction(() => commentsApi.resolve(c.id, !c.resolved_by))}>{c.resolved_by ? 'Reopen' : 'Resolve'} comment {i + 1}</button>
                )}
              </li>
            ))}
          </ol>
        )}
        {commentable && (
          <form onSubmit={addComment} className="inline">
            <label>New comment<textarea value={comment} onChange={(e) => setComment(e.target.value)} rows={2} required /></label>
            <button type="submit">Comment</button>
          </form>
        )}
      </section>
    </dialog>
  );
}
