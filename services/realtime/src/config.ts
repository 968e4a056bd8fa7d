import { z } from 'zod';

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `24h`, `30m`, `90s`, `1500ms`, `2d`, or a number of milliseconds. */
export const duration = z.union([z.number(), z.string()]).transform((value, ctx) => {
  const text = String(value).trim();
  const match = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?$/.exec(text);
  if (!match) {
    ctx.addIssue({ code: 'custom', message: `must be a duration such as 24h, 30m, 90s or 1500ms, got '${text}'` });
    return z.NEVER;
  }
  return Math.round(Number(match[1]) * UNITS[match[2] ?? 'ms']);
});

/** Settings of the realtime service (docs/configuration.md, docs/realtime.md). */
export const realtimeConfigSchema = z.object({
  /** How long events stay resumable (the feed log's retention); an older Last-Event-ID gets `event: reset`. */
  SVC_FEED_RETENTION: duration.default(24 * 3_600_000),
  /** A `: ping` comment line (SSE) or ping frame (WebSocket) this often; stream leases are renewed as often and last 3 times as long. */
  SVC_FEED_HEARTBEAT_MS: z.coerce.number().int().min(100).default(15_000),
  /** Concurrent streams (SSE streams and WebSocket subscriptions) one principal may hold across every replica; 429 beyond. */
  SVC_FEED_MAX_STREAMS_PER_PRINCIPAL: z.coerce.number().int().min(1).default(20),
  /** Bytes a stream may have waiting to be sent to a slow client before it is closed (with the last delivered id). */
  SVC_FEED_BUFFER_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
  /** Reads of the feed log at least this far apart (ms): events committed within it go to each client in one write. */
  SVC_FEED_BATCH_MS: z.coerce.number().int().min(0).max(1000).default(20),
  /**
   * The most the reads may be spread apart (ms) when many clients get each batch: the gap grows past
   * SVC_FEED_BATCH_MS to keep this process's client writes near SVC_FEED_WRITES_PER_SECOND.
   */
  SVC_FEED_BATCH_MAX_MS: z.coerce.number().int().min(0).max(1000).default(40),
  /** Client writes per second (one per client per batch) the reads' spacing aims at, up to SVC_FEED_BATCH_MAX_MS. */
  SVC_FEED_WRITES_PER_SECOND: z.coerce.number().int().min(1).default(25_000),
});

export type RealtimeConfig = z.infer<typeof realtimeConfigSchema>;
