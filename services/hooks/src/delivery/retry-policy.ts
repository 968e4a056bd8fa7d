/** How long to wait before the next attempt, from the hook's interval (±20% jitter) or Retry-After. */
export function nextDelayMs(retryInterval: number, status: number | undefined, retryAfter: string | undefined, random = Math.random): number {
  if ((status === 429 || status === 503) && retryAfter) {
    const honoured = retryAfterMs(retryAfter);
    if (honoured !== null) return Math.min(honoured, 24 * 3600 * 1000);
  }
  return Math.max(0, Math.round(retryInterval * (0.8 + random() * 0.4)));
}

/** Retry-After as delay-seconds or an HTTP date; null when unparsable. */
export function retryAfterMs(value: string, now = Date.now()): number | null {
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** What happens after an attempt. */
export type Outcome = 'succeeded' | 'gone' | 'retry' | 'failed';

/** Decides the outcome: success, 410 Gone (stop and deactivate), retry while attempts remain, else failed. */
export function outcomeOf(ok: boolean, status: number | undefined, attempt: number, retries: number): Outcome {
  if (ok) return 'succeeded';
  if (status === 410) return 'gone';
  return attempt <= retries ? 'retry' : 'failed';
}
