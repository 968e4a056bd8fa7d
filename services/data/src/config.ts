import { z } from 'zod';
import { envBoolean, envInt } from '@tabula/config';

/** Settings of the data service (docs/configuration.md). */
export const dataConfigSchema = z.object({
  /** Most records one bulk request may carry; larger bodies get 422 ERR_MAX_PAYLOAD_LIMIT_EXCEEDED. */
  SVC_BULK_MAX_RECORDS: envInt(1000, 1, 100_000),
  /** Page size when `limit` is missing or invalid. */
  SVC_DB_QUERY_LIMIT_DEFAULT: envInt(25, 1, 1000),
  /** Largest page size; bigger `limit` values are clamped to it. */
  SVC_DB_QUERY_LIMIT_MAX: envInt(1000, 1, 10_000),
  /** Safety net for the table-context cache when a meta event is lost (ms). */
  SVC_TABLE_CACHE_TTL_MS: envInt(30_000, 0, 3_600_000),
  /** Tables estimated above this many rows report `pageInfo.totalRows` from the planner (see count-strategy). */
  SVC_EXACT_COUNT_MAX_ROWS: envInt(100_000, 0, 1_000_000_000),
  /** How long a "this table has no sync hooks" answer is trusted when no hooks event dropped it first (ms; 0 = ask on every write). */
  SVC_SYNC_HOOKS_CACHE_TTL_MS: envInt(10_000, 0, 3_600_000),
  /** A committed write asks the outbox relay to publish after this delay, so concurrent writes share one relay transaction (ms). */
  SVC_OUTBOX_FLUSH_DELAY_MS: envInt(2, 0, 1000),
  /** Server-side prepared statements kept per connection of the data database for the cached hot reads (0 = none). */
  SVC_PG_PREPARED_PER_CONNECTION: envInt(100, 0, 10_000),
  /** List, read by id and insert one (v1, v2, v3) skip the app's router stack (same layers, guard and handler); `false`: everything through the Koa app. */
  SVC_DATA_DIRECT_PATH: envBoolean(true),
});

export type DataConfig = z.infer<typeof dataConfigSchema>;
