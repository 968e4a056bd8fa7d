import type { Knex } from 'knex';
import type { KeyRing } from '@tabula/runtime';
import { replaceSealed, sealedConfigsAfter } from '../repositories/integration.repository';

/** What a rotation did. */
export interface RotationReport {
  /** Rows read. */
  scanned: number;
  /** Rows re-sealed with the first key of the ring. */
  resealed: number;
  /** Rows already sealed with the first key. */
  current: number;
}

/**
 * Re-seals every integration config with the first key of the ring, in
 * batches of row-locked transactions (a concurrent PATCH waits for its batch).
 * A row no key of the ring opens stops the rotation with an error naming it:
 * nothing is lost, the old key is simply still needed.
 */
export async function rotateKeys(db: Knex, ring: KeyRing, batchSize = 200): Promise<RotationReport> {
  const report: RotationReport = { scanned: 0, resealed: 0, current: 0 };
  let after = '';
  for (;;) {
    const done = await db.transaction(async (trx) => {
      const rows = await sealedConfigsAfter(trx, after, batchSize);
      for (const row of rows) {
        report.scanned += 1;
        if (!ring.needsResealing(row.config_sealed)) { report.current += 1; continue; }
        let value: unknown;
        try {
          value = ring.open(row.config_sealed);
        } catch (err) {
          throw new Error(`integration ${row.id}: ${(err as Error).message}; keep its key in SVC_INTEGRATIONS_ENCRYPTION_KEY`);
        }
        await replaceSealed(trx, row.id, ring.seal(value));
        report.resealed += 1;
      }
      if (rows.length > 0) after = rows[rows.length - 1].id;
      return rows.length < batchSize;
    });
    if (done) return report;
  }
}
