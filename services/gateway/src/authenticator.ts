import { createHash } from 'node:crypto';
import { errors, type ServiceClient } from '@tabula/http';
import type { Principal } from '@tabula/auth';
import type { Credential } from './credentials';

interface Entry {
  principal: Principal;
  until: number;
}

/**
 * Resolves a credential to a principal by asking the auth service
 * (`POST /internal/authenticate`), with a short cache keyed by the token's hash.
 * Cached principals are dropped on the auth service's invalidation events
 * (sign-out, password change, token revoked) and, for the caller, as soon as
 * its own session-changing request succeeds.
 */
export class Authenticator {
  private readonly cache = new Map<string, Entry>();

  constructor(private readonly services: ServiceClient, private readonly ttlMs: number) {}

  async authenticate(credential: Credential): Promise<Principal> {
    const key = createHash('sha256').update(credential.token).digest('base64url');
    const hit = this.cache.get(key);
    if (hit && hit.until > Date.now()) return hit.principal;
    const res = await this.services.request<{ principal?: Principal }>('auth', {
      method: 'POST', path: '/internal/authenticate', body: { token: credential.token, kind: credential.kind },
    });
    if (res.status >= 500) throw errors.unavailable('Authentication service unavailable');
    if (res.status !== 200 || !res.body?.principal) throw errors.unauthorized();
    if (this.ttlMs > 0) {
      if (this.cache.size > 100_000) this.cache.clear();
      this.cache.set(key, { principal: res.body.principal, until: Date.now() + this.ttlMs });
    }
    return res.body.principal;
  }

  /** Forgets every cached principal of a user (or only of one API token). */
  invalidate(userId: string, tokenId?: string): void {
    for (const [key, entry] of this.cache) {
      if (entry.principal.id !== userId) continue;
      if (tokenId && entry.principal.tokenId !== tokenId) continue;
      this.cache.delete(key);
    }
  }
}
