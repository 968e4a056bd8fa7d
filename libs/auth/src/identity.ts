import jwt from 'jsonwebtoken';
import type { Middleware } from 'koa';
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
  const claims = jwt.verify(token, hmacKey(secret), { algorithms: ['HS256'], audience: AUDIENCE }) as jwt.JwtPayload;
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

/**
 * Caches signed identities per principal for half their lifetime, so the
 * gateway and internal clients do not sign on every call.
 */
export function identitySigner(secret: string): (principal: Principal) => string {
  const cache = new Map<string, { token: string; until: number }>();
  return (principal) => {
    const key = JSON.stringify(principal);
    const hit = cache.get(key);
    const now = Date.now();
    if (hit && hit.until > now) return hit.token;
    const token = signIdentity(principal, secret);
    if (cache.size > 10_000) cache.clear();
    cache.set(key, { token, until: now + (LIFETIME_SECONDS * 1000) / 2 });
    return token;
  };
}

/**
 * Service-side: reads the identity the gateway signed and puts the principal on
 * `ctx.state.principal`. Never trusts anything else the client sent. A header
 * that does not verify is a 401.
 */
export function identityMiddleware(secret: string): Middleware {
  return async (ctx, next) => {
    const header = ctx.get(IDENTITY_HEADER);
    if (header) {
      try {
        ctx.state.principal = verifyIdentity(header, secret);
      } catch {
        throw errors.unauthorized();
      }
    }
    await next();
  };
}

/** Route guard: a user principal is required (JWT or API token). */
export function requireUser(options: { allowApiToken?: boolean } = {}): Middleware {
  return async (ctx, next) => {
    const principal = ctx.state.principal as Principal | undefined;
    if (!principal || principal.kind !== 'user') throw errors.unauthorized();
    if (options.allowApiToken === false && principal.via === 'api-token') throw errors.apiTokenNotAllowed();
    await next();
  };
}

/** Route guard for `/internal/...`: only other services. */
export function requireService(): Middleware {
  return async (ctx, next) => {
    const principal = ctx.state.principal as Principal | undefined;
    if (!principal || principal.kind !== 'service') throw errors.forbidden('Internal endpoint');
    await next();
  };
}

/** The authenticated principal of a request (after requireUser/requireService). */
export function principalOf(ctx: { state: Record<string, unknown> }): Principal {
  const p = ctx.state.principal as Principal | undefined;
  if (!p) throw errors.unauthorized();
  return p;
}
