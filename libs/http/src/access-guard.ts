import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { z } from 'zod';
import type { AnyEndpoint, CallerKind, principalSchema } from '@tabula/contracts';
import { errors } from './app-error';

type Principal = z.infer<typeof principalSchema>;

/** What the guard established for a request: the caller and, when declared, the scope the permission held on. */
export interface AccessScope<T = unknown> {
  principal: Principal;
  /** The base the permission was checked in (base permissions). */
  baseId?: string;
  /** The caller's role in that base. */
  role?: string;
  /** What the scope's resolver loaded (a table, a comment, an integration…). */
  value: T;
}

/**
 * Checks an endpoint's declared permission on its scope, after its input is
 * validated (built by libs/auth `contractAuthorizer` from the service's
 * resolvers). `refuse` answers for a caller kind the endpoint does not admit
 * but that may not even learn the resource exists.
 */
export interface Authorizer {
  /** Throws at start-up when the endpoint's scope has no resolver in this service. */
  check(endpoint: AnyEndpoint): void;
  authorize(endpoint: AnyEndpoint, principal: Principal, input: unknown): Promise<AccessScope>;
  /** The answer to a caller kind the endpoint does not admit, once its scope is known. */
  refuse(endpoint: AnyEndpoint, principal: Principal, input: unknown): Promise<Error>;
}

const AUTHORIZER = Symbol('tabula.authorizer');
type GuardedRouter = Router & { [AUTHORIZER]?: Authorizer };

/** A router whose contract routes check their declared permissions with this authorizer. */
export function guardedRouter(authorizer: Authorizer, options?: ConstructorParameters<typeof Router>[0]): Router {
  const router = new Router(options) as GuardedRouter;
  router[AUTHORIZER] = authorizer;
  return router;
}

/** The authorizer a router was built with. */
export function authorizerOf(router: Router): Authorizer | undefined {
  return (router as GuardedRouter)[AUTHORIZER];
}

/** The kind of caller a principal is. */
export function callerKindOf(principal: Principal | undefined): CallerKind {
  if (!principal) return 'anonymous';
  if (principal.kind === 'service') return 'service';
  if (principal.via === 'api-token') return principal.baseScope ? 'baseToken' : 'orgToken';
  return 'session';
}

/** The refusal of a caller kind the endpoint does not admit (when no scope hides the resource). */
function refusal(kind: CallerKind, endpoint: AnyEndpoint): Error {
  const { callers } = endpoint.auth;
  if (callers.includes('service')) return errors.forbidden('Internal endpoint');
  if (kind === 'anonymous') return errors.unauthorized();
  if (kind === 'service') return errors.forbidden('Forbidden - services call internal endpoints only');
  if (kind !== 'session' && callers.length === 1 && callers[0] === 'session') return errors.apiTokenNotAllowed();
  return errors.forbidden('Forbidden - a base-scoped API token cannot act on the workspace');
}

/** Marks a request whose caller kind was refused but whose answer waits for the input (ctx.state key). */
const REFUSED = '__tabulaRefused';

/** True for endpoints of a user's own session alone (password, tokens): every API token is refused. */
function sessionOnly(endpoint: AnyEndpoint): boolean {
  const { callers } = endpoint.auth;
  return callers.length === 1 && callers[0] === 'session';
}

/**
 * Before the input is read: refuses a caller kind the endpoint does not admit.
 * A signed-in caller refused from an endpoint with a scope gets, after
 * validation, the answer of a missing resource instead (it may not learn the
 * resource exists); but an API token on a session-only endpoint is refused
 * at once (401 ERR_API_TOKEN_NOT_ALLOWED, whatever the ids: the answer
 * depends on the credential alone, so it reveals nothing).
 */
export function admitCallers(endpoint: AnyEndpoint): Middleware {
  const { callers, scope } = endpoint.auth;
  const refuseAtOnce = !scope || sessionOnly(endpoint);
  // Not async (one promise fewer per request): a refusal thrown here rejects the caller's `next()` all the same.
  return (ctx, next) => {
    const kind = callerKindOf(ctx.state.principal as Principal | undefined);
    if (!callers.includes(kind)) {
      if (kind === 'anonymous' || kind === 'service' || refuseAtOnce) throw refusal(kind, endpoint);
      ctx.state[REFUSED] = true;
    }
    return next();
  };
}

/** After validation: the declared permission on the declared scope; the result is `ctx.state.scope`. */
export function authorizeInput(endpoint: AnyEndpoint, authorizer: Authorizer): Middleware {
  return async (ctx, next) => {
    const input = (ctx as unknown as { input: unknown }).input;
    if (ctx.state[REFUSED]) throw await authorizer.refuse(endpoint, ctx.state.principal as Principal, input);
    ctx.state.scope = await authorizer.authorize(endpoint, ctx.state.principal as Principal, input);
    await next();
  };
}

/** The scope the route's guard established (the use case's already-authorized context). */
export function scopeOf<T>(ctx: { state: Record<string, unknown> }): AccessScope<T> {
  const scope = ctx.state.scope as AccessScope<T> | undefined;
  if (!scope) throw new Error('no access scope on this request: the endpoint declares no permission or scope');
  return scope;
}
