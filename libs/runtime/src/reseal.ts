import type { Knex } from 'knex';
import type { AtRestRing } from './at-rest-keys';

/** One stored sealed value. */
export interface SealedRow {
  id: string;
  sealed: string;
}

/** A service's column of sealed values, as its repository reads and writes it. */
export interface SealedColumn {
  /**
   * Up to `limit` rows with an id above `afterId` whose value does not start
   * with `current` (not sealed with the ring's first key), by id, locked
   * `FOR UPDATE` in `trx`.
   */
  staleAfter(trx: Knex.Transaction, afterId: string, current: string, limit: number): Promise<SealedRow[]>;
  /** Replaces a row's sealed value (not a change of the row: no updated_at). */
  replace(trx: Knex.Transaction, id: string, sealed: string): Promise<void>;
}

/** What a re-seal did. */
export interface ResealReport {
  /** Rows now sealed with the ring's first key. */
  resealed: number;
  /** Rows no key opens (left as they are; their former key is still needed). */
  unreadable: string[];
}

/**
 * Re-seals every value not sealed with the ring's first key (legacy formats,
 * older ring keys), in batches of row-locked transactions. Idempotent, and
 * safe with several replicas at once: rows are locked in id order, and a row
 * a replica re-sealed meanwhile no longer matches when the other reads it.
 * A row nothing opens is reported, never lost.
 */
export async function resealStale(db: Knex, ring: AtRestRing, column: SealedColumn, batchSize = 200): Promise<ResealReport> {
  const report: ResealReport = { resealed: 0, unreadable: [] };
  let after = '';
  for (;;) {
    const done = await db.transaction(async (trx) => {
      const rows = await column.staleAfter(trx, after, ring.currentPrefix, batchSize);
      for (const row of rows) {
        let value: unknown;
        try {
          value = ring.open(row.sealed);
        } catch {
          report.unreadable.push(row.id);
          continue;
        }
        await column.replace(trx, row.id, ring.seal(value));
        report.resealed += 1;
      }
      if (rows.length > 0) after = rows[rows.length - 1].id;
      return rows.length < batchSize;
    });
    if (done) return report;
  }
}

/** Re-seals at start-up and logs what it did (a row nothing opens is an error line naming it; start-up goes on). */
export async function resealOnStart(
  ports: { db: Knex; logger: { info(o: object, m: string): void; error(o: object, m: string): void } },
  ring: AtRestRing, column: SealedColumn, what: string,
): Promise<ResealReport> {
  const report = await resealStale(ports.db, ring, column);
  if (report.resealed) ports.logger.info({ what, keyId: ring.primaryId, resealed: report.resealed }, 'at-rest values re-sealed with the first key of SVC_ENCRYPTION_KEYS');
  if (report.unreadable.length) {
    ports.logger.error({ what, ids: report.unreadable }, 'at-rest values no key opens: keep their former key (SVC_ENCRYPTION_KEYS, or the former service setting / SVC_INTERNAL_SECRET)');
  }
  return report;
}

/**
 * The {@link SealedColumn} of a table whose rows have a text `id` and a
 * nullable sealed text column (`schema.table`); null values are skipped.
 */
export function sealedColumn(table: string, column: string): SealedColumn {
  return {
    async staleAfter(trx, afterId, current, limit) {
      return trx(table).select('id', `${column} as sealed`)
        .whereNotNull(column).where('id', '>', afterId)
        // starts_with, not LIKE: key ids are base64url, and `_` is a LIKE wildcard
        .whereRaw('not starts_with(??, ?)', [column, current])
        .orderBy('id').limit(limit).forUpdate();
    },
    async replace(trx, id, sealed) {
      await trx(table).where({ id }).update({ [column]: sealed });
    },
  };
}
