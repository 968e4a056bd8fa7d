import { LRUCache } from 'lru-cache';
import * as crypto from 'node:crypto';
import { authInternal } from '@tabula/contracts';
import { AppError, clientOf, errors, type ServiceClient } from '@tabula/http';
import type { Principal } from '@tabula/auth';
import type { Credential } from './credentials';

/**
 * SHA-256 of a token, base64url: Node's one-shot `crypto.hash` (20.12+) where
 * there is one, a Hash object otherwise. The one-shot form skips the object
 * and its OpenSSL context, which showed as ~7 % of a cached read's CPU.
 */
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'base64url') => string }).hash;
export const tokenKey: (token: string) => string = oneShot
  ? (token) => oneShot('sha256', token, 'base64url')
  : (token) => crypto.createHash('sha256').update(token).digest('base64url');

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
  /** Bounded by lru-cache (least recently used first); each entry's TTL is checked on the wall clock. */
  private readonly cache = new LRUCache<string, Entry>({ max: 100_000 });

  private readonly auth;

  constructor(services: ServiceClient, private readonly ttlMs: number) {
    this.auth = clientOf(services, authInternal);
  }

  async authenticate(credential: Credential): Promise<Principal> {
    const key = tokenKey(credential.token);
    const hit = this.cache.get(key);
    if (hit && hit.until > Date.now()) return hit.principal;
    const principal = await this.ask(credential);
    if (this.ttlMs > 0) {
      this.cache.set(key, { principal, until: Date.now() + this.ttlMs });
    }
    return principal;
  }

  /** Auth's answer: a 5xx (or no answer) is "unavailable", any other refusal is 401. */
  private async ask(credential: Credential): Promise<Principal> {
    try {
      return (await this.auth.authenticate({ body: { token: credential.token, kind: credential.kind } })).principal;
    } catch (err) {
      if (err instanceof AppError && err.status < 500) throw errors.unauthorized();
      throw errors.unavailable('Authentication service unavailable');
    }
  }

  /** Forgets every cached principal of a user (or only of one API token). */
  invalidate(userId: string, tokenId?: string): void {
    const gone: string[] = [];
    for (const [key, entry] of this.cache.entries()) {
      if (entry.principal.id !== userId) continue;
      if (tokenId && entry.principal.tokenId !== tokenId) continue;
      gone.push(key);
    }
    for (const key of gone) this.cache.delete(key);
  }
}
