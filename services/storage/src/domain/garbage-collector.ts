import { AppError } from '@tabula/http';
import type { Worker } from '@tabula/runtime';
import { deleteIfUnreferenced, dropUse, gcCandidates, markReferenced, usesOfObjects, type ObjectRow } from '../repositories/object.repository';
import { storedValueOf } from '../presenters/attachment.presenter';
import type { StoragePorts } from '../ports';

const BATCH = 500;
/** Only one storage process collects at a time (cluster replicas). */
const GC_LOCK = 0x7ab1_a5c;

/** What one run did. */
export interface GcReport {
  checked: number;
  deleted: number;
}

/** Object ids (of `rows`) that some column they were written to still references; drops uses that no longer hold them. */
async function stillReferenced(ports: StoragePorts, rows: ObjectRow[]): Promise<Set<string>> {
  const uses = await usesOfObjects(ports.db, rows.map((r) => r.id));
  const byColumn = new Map<string, { tableId: string; columnId: string; ids: string[] }>();
  for (const u of uses) {
    const k = `${u.table_id}/${u.column_id}`;
    if (!byColumn.has(k)) byColumn.set(k, { tableId: u.table_id, columnId: u.column_id, ids: [] });
    byColumn.get(k)!.ids.push(u.object_id);
  }
  const rowById = new Map(rows.map((r) => [r.id, r]));
  const live = new Set<string>();
  for (const { tableId, columnId, ids } of byColumn.values()) {
    const valueOf = new Map(ids.map((id) => { const v = storedValueOf(ports, rowById.get(id)!.key); return [v.path ?? v.url ?? '', id]; }));
    let referenced: string[] = [];
    try {
      ({ referenced } = await ports.data.dataAttachmentRefs({ body: { tableId, columnId, values: [...valueOf.keys()] } }));
    } catch (err) {
      // a deleted table or column references nothing any more; anything else: keep everything this run
      if (!(err instanceof AppError && err.status === 404)) { ids.forEach((id) => live.add(id)); continue; }
    }
    const held = new Set(referenced.map((v) => valueOf.get(v)));
    for (const id of ids) {
      if (held.has(id)) live.add(id); else await dropUse(ports.db, id, tableId, columnId);
    }
  }
  return live;
}

/**
 * One collection: every object is checked against the columns it was written
 * to, in every base it belongs to (a copy of a base has the source's uses for
 * its own columns, recorded when the source's objects were shared with it, so
 * deleting the source keeps what the copy holds); unreferenced ones get
 * `unreferenced_since`, and those unreferenced for longer than
 * SVC_ATTACHMENT_GC_GRACE_SECONDS are deleted (row first, under the same
 * condition, so a concurrent claim wins; its bases and uses go with it).
 */
export async function collectGarbage(ports: StoragePorts): Promise<GcReport> {
  const report: GcReport = { checked: 0, deleted: 0 };
  const grace = ports.config.SVC_ATTACHMENT_GC_GRACE_SECONDS;
  let after: string | undefined;
  for (;;) {
    const rows = await gcCandidates(ports.db, BATCH, after);
    if (!rows.length) return report;
    after = rows[rows.length - 1].id;
    const live = await stillReferenced(ports, rows);
    for (const row of rows) {
      report.checked++;
      await markReferenced(ports.db, row.id, live.has(row.id));
      if (live.has(row.id)) continue;
      if (await deleteIfUnreferenced(ports.db, row.id, grace)) { await ports.blobs.delete(row.key); report.deleted++; }
    }
  }
}

/** Runs {@link collectGarbage} every SVC_ATTACHMENT_GC_INTERVAL_SECONDS under a PostgreSQL advisory lock. */
export function startGarbageCollector(ports: StoragePorts): Worker {
  const seconds = ports.config.SVC_ATTACHMENT_GC_INTERVAL_SECONDS;
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    running = ports.db.transaction(async (trx) => {
      const { rows } = await trx.raw('SELECT pg_try_advisory_xact_lock(?) AS ok', [GC_LOCK]);
      if (!rows[0]?.ok) return;
      const report = await collectGarbage(ports);
      if (report.deleted) ports.logger.info(report, 'attachment garbage collected');
    }).catch((err: unknown) => ports.logger.warn({ err }, 'attachment garbage collection failed'));
  };
  const timer = seconds > 0 ? setInterval(tick, seconds * 1000) : undefined;
  timer?.unref();
  return { stop: async () => { if (timer) clearInterval(timer); await running; } };
}
