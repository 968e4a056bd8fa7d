import { events, type Row } from './api';

export interface RecordEvent { id: string; type: string; rows: Row[]; previous_rows?: Row[]; actor?: { email?: string } }
export type LiveStatus = 'connecting' | 'live' | 'reconnecting' | 'closed';

/**
 * Follows a table's change feed (docs/realtime.md): a one-use ticket from
 * `POST /api/v1/events/tickets` opens the EventSource (which cannot send the
 * token header). A ticket opens one stream, so on any error the stream is
 * opened again with a new ticket and `last_event_id` (the id of the last
 * event applied): the feed replays what was missed, nothing is lost or repeated.
 */
export function followTable(tableId: string, handlers: {
  onRecords: (event: RecordEvent) => void;
  onReset: () => void;
  onStatus: (status: LiveStatus) => void;
}): () => void {
  let closed = false;
  let source: EventSource | undefined;
  let lastId: string | undefined;
  let failures = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const retry = () => {
    source?.close();
    source = undefined;
    if (closed) return;
    handlers.onStatus('reconnecting');
    timer = setTimeout(open, Math.min(500 * 2 ** failures++, 10_000));
  };

  const open = async () => {
    if (closed) return;
    try {
      const { ticket } = await events.ticket(tableId);
      if (closed) return;
      const stream = new EventSource(events.tableStreamUrl(tableId, ticket, lastId));
      source = stream;
      stream.onopen = () => { failures = 0; handlers.onStatus('live'); };
      stream.onerror = () => { if (source === stream) retry(); };
      for (const type of ['records.after.insert', 'records.after.update', 'records.after.delete']) {
        stream.addEventListener(type, (message) => {
          const event = message as MessageEvent<string>;
          lastId = event.lastEventId || lastId;
          try { handlers.onRecords(JSON.parse(event.data) as RecordEvent); } catch { /* a malformed event is skipped */ }
        });
      }
      stream.addEventListener('reset', () => { lastId = undefined; handlers.onReset(); });
      stream.addEventListener('overflow', (message) => {
        try { lastId = String(JSON.parse((message as MessageEvent<string>).data).last_event_id ?? lastId); } catch { /* keep the last id */ }
        retry();
      });
      for (const type of ['revoked', 'deleted']) {
        stream.addEventListener(type, () => { stream.close(); source = undefined; handlers.onStatus('closed'); });
      }
    } catch {
      retry();
    }
  };

  handlers.onStatus('connecting');
  void open();
  return () => {
    closed = true;
    if (timer) clearTimeout(timer);
    source?.close();
  };
}
