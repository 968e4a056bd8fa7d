import type { Knex } from 'knex';
import type { DeliverySink } from './delivery-sink';
import type { AckedWrite } from './write-load';

/** One line of the fault table. */
export interface FaultRow {
  fault: string;
  /** Writes answered 2xx during the phase. */
  acknowledged: number;
  /** Of those, present in the table afterwards. */
  found: number;
  /** Of those, whose record event reached the webhook sink at least once. */
  delivered: number;
  /** Calls beyond the first that carried one of the phase's acknowledged writes. */
  duplicates: number;
  /** Requests that failed (5xx, refused, timed out) during the phase: not acknowledged, retried. */
  failed: number;
  /** From the restart until the first successful request that needs the faulted component. */
  recoveryMs: number;
}

/** The table's current rows: Name → Qty, and Id → Qty. */
export async function tableState(db: Knex, schema: string, table: string): Promise<{ byName: Map<string, number>; byId: Map<number, number>; rows: number }> {
  const rows = await db.withSchema(schema).table(table).select<{ id: number; name: string; qty: number }[]>('id', 'name', 'qty');
  return {
    byName: new Map(rows.map((r) => [r.name, Number(r.qty)])),
    byId: new Map(rows.map((r) => [Number(r.id), Number(r.qty)])),
    rows: rows.length,
  };
}

/** Whether an acknowledged write is in the table (an update: the row's Qty is at least what it set; Qty only grows). */
export function isPresent(write: AckedWrite, state: { byName: Map<string, number>; byId: Map<number, number> }): boolean {
  if (write.kind === 'update') return (state.byId.get(write.rowId!) ?? -1) >= write.qty!;
  return write.markers.every((name) => state.byName.has(name));
}

/** Whether every record of a write reached the sink. */
export function isDelivered(write: AckedWrite, sink: DeliverySink): boolean {
  return write.markers.every((marker) => sink.seen.has(marker));
}

/** The table line of one phase. */
export function faultRow(
  fault: string, writes: AckedWrite[], state: Awaited<ReturnType<typeof tableState>>, sink: DeliverySink, failed: number, recoveryMs: number,
): FaultRow {
  const duplicates = writes.reduce((sum, w) => sum + Math.max(0, ...w.markers.map((m) => (sink.seen.get(m) ?? 1) - 1)), 0);
  return {
    fault,
    acknowledged: writes.length,
    found: writes.filter((w) => isPresent(w, state)).length,
    delivered: writes.filter((w) => isDelivered(w, sink)).length,
    duplicates,
    failed,
    recoveryMs,
  };
}

/** The fault table as printed. */
export function formatTable(rows: FaultRow[]): string {
  const head = ['service/fault', 'writes acked', 'writes found', 'events delivered', 'duplicates', 'failed requests', 'recovery ms'];
  const body = rows.map((r) => [r.fault, r.acknowledged, r.found, r.delivered, r.duplicates, r.failed, r.recoveryMs].map(String));
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  return [line(head), `|${widths.map((w, i) => (i === 0 ? `:${'-'.repeat(w + 1)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`, ...body.map(line)].join('\n');
}
