import { LRUCache } from 'lru-cache';
import type { BaseCandidates } from '@tabula/auth';
import type { MetaClient } from '../adapters/service-clients';

/**
 * Which live bases a `{baseName}` could mean (meta `GET /internal/bases/:ref/candidates`),
 * cached briefly per reference. The caller-specific choice among them is made
 * by libs/auth `resolveBaseRef`; this cache holds nothing caller-specific.
 * Bounded by lru-cache (least recently used first).
 */
export class BaseCandidatesCache {
  private readonly entries: LRUCache<string, { value: BaseCandidates; until: number }>;
  private generation = 0;

  constructor(private readonly meta: Pick<MetaClient, 'baseCandidates'>, private readonly ttlMs: number, maxEntries = 10_000) {
    this.entries = new LRUCache({ max: maxEntries });
  }

  /** The candidates of a reference, from the cache or meta. */
  async get(ref: string): Promise<BaseCandidates> {
    const hit = this.entries.get(ref);
    if (hit && hit.until > Date.now()) return hit.value;
    const generation = this.generation;
    const value = await this.load(ref);
    if (generation === this.generation && this.ttlMs > 0) this.entries.set(ref, { value, until: Date.now() + this.ttlMs });
    return value;
  }

  /** Drops every entry (a meta event may have created, renamed or deleted a base). */
  clear(): void {
    this.generation += 1;
    this.entries.clear();
  }

  private async load(ref: string): Promise<BaseCandidates> {
    const answer = await this.meta.baseCandidates({ params: { baseRef: ref } });
    return { byId: answer.byId, byTitle: answer.byTitle };
  }
}
