import jwt from 'jsonwebtoken';
import type { Middleware } from 'koa';
import { LRUCache } from 'lru-cache';
import { errors } from '@tabula/errors';
import type { Principal } from './principal';
import { hmacKey } from './hmac-key';

/** Header carrying the gateway-signed identity to a service. */
export const IDENTITY_HEADER = 'x-tabula-identity';
const AUDIENCE = 'tabula-internal';
const LIFETIME_SECONDS = 60;

/** Signs a short-lived internal identity (HS256, 60 s) with the internal secret. */
export function signIdentity(principal: Principal, secret: string): string {
  const { kind, id, email, roles, via, tokenId, baseScope } = principal;
  return jwt.sign({ kind, email, roles, via, tokenId, baseScope }, hmacKey(secret), {
    algorithm: 'HS256', subject: id, audience: AUDIENCE, expiresIn: LIFETIME_SECONDS,
  });
}

/** Verifies an internal identity; only HS256 with our secret is accepted. */
export function verifyIdentity(token: string, secret: string): Principal {
  return principalOfClaims(verifiedClaims(token, secret));
}

function verifiedClaims(token: string, secret: string): jwt.JwtPayload {
  return jwt.verify(token, hmacKey(secret), { algorithms: ['HS256'], audience: AUDIENCE }) as jwt.JwtPayload;
}

function principalOfClaims(claims: jwt.JwtPayload): Principal {
  return {
    kind: claims.kind === 'service' ? 'service' : 'user',
    id: String(claims.sub),
    email: claims.email,
    roles: Array.isArray(claims.roles) ? claims.roles.map(String) : [],
    via: claims.via,
    tokenId: claims.tokenId,
    baseScope: claims.baseScope,
  };
}

/** How many signed identities a signer keeps (distinct principals seen in the last half lifetime). */
export const SIGNER_CACHE_SIZE = 10_000;

/**
 * Signs each principal once and reuses the token for half its lifetime (30 s
 * of 60 s), so the gateway and the internal clients do not run HMAC-SHA256
 * over a fresh JWT on every call. The key is the whole principal (kind, id,
 * email, org roles, via, token id, base scope): any change of what the
 * identity says gives a new key, hence a new token, at once.
 *
 * Why reuse is safe: the token never leaves the cluster (gateway → service),
 * and it is handed out only for the principal the authenticator resolved for
 * *this* request, so it carries nothing the current request is not entitled
 * to. A signed-out user or revoked API token is refused by the authenticator
 * before any signing (its cached principal is dropped by auth's events), and
 * base membership and base roles are not in the token at all: each service
 * resolves them per request through BaseAccess (its own cache is dropped on
 * membership events), so a removed member loses access exactly as fast as
 * without this cache. Worst case staleness is nil for
 * authorization; a cached token is at most 30 s old and always has ≥ 30 s of
 * validity left when sent. Bounded: past {@link SIGNER_CACHE_SIZE} entries
 * the least recently used go first (lru-cache).
 */
export function identitySigner(secret: string, maxEntries = SIGNER_CACHE_SIZE): (principal: Principal) => string {
  // lru-cache bounds it (least recently used first); the reuse window is checked on the wall clock each time.
  const cache = new LRUCache<string, { token: string; until: number }>({ max: maxEntries });
  const reuseMs = (LIFETIME_SECONDS * 1000) / 2;
  return (principal) => {
    const { kind, id, email, roles, via, tokenId, baseScope } = principal;
    const key = JSON.stringify([kind, id, email, roles, via, tokenId, baseScope]);
    const hit = cache.get(key);
    const now = Date.now();
    if (hit && hit.until > now) return hit.token;
    const token = signIdentity(principal, secret);
    cache.set(key, { token, until: now + reuseMs });
    return token;
  };
}

/** How many verified identities a service keeps (the signers reuse a token for 30 s, so few are live at once). */
export const VERIFIER_CACHE_SIZE = 10_000;

/**
 * The service side of {@link identitySigner}: a token verified once is
 * remembered, by its exact text, until its own `exp`. The same text carries
 * the same signature over the same claims, so a remembered answer is the
 * answer verification would give; the expiry is checked on every use (a token
 * past `exp` is verified again, and refused). A token that fails verification
 * is never remembered. Each caller gets its own copy of the principal.
 * Bounded: past {@link VERIFIER_CACHE_SIZE} entries the least recently used go first (lru-cache).
 */
export function identityVerifier(secret: string, maxEntries = VERIFIER_CACHE_SIZE): (token: string) => Principal {
  const cache = new LRUCache<string, { principal: Principal; expiresAt: number }>({ max: maxEntries });
  return (token) => {
    const now = Date.now();
    const hit = cache.get(token);
    if (hit && hit.expiresAt > now) return { ...hit.principal };
    const claims = verifiedClaims(token, secret);
    const principal = principalOfClaims(claims);
    cache.delete(token);
    if (typeof claims.exp === 'number') cache.set(token, { principal, expiresAt: claims.exp * 1000 });
    return { ...principal };
  };
}

/**
 * Service-side: reads the identity the gateway signed and puts the principal on
 * `ctx.state.principal`. Never trusts anything else the client sent. A header
 * that does not verify is a 401.
 */
export function identityMiddleware(secret: string): Middleware {
  const verify = identityVerifier(secret);
  // Not async (one promise fewer per request): the 401 thrown here rejects the caller's `next()` all the same.
  return (ctx, next) => {
    const header = ctx.get(IDENTITY_HEADER);
    if (header) {
      try {
        ctx.state.principal = verify(header);
      } catch {
        throw errors.unauthorized();
      }
    }
    return next();
  };
}


/** The authenticated principal of a request (routes admit callers from their contract; 401 when there is none). */
export function principalOf(ctx: { state: Record<string, unknown> }): Principal {
  const p = ctx.state.principal as Principal | undefined;
  if (!p) throw errors.unauthorized();
  return p;
}
