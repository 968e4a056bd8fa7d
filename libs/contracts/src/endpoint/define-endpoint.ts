import { z } from 'zod';
import { accessOf, checkAuth, type EndpointAccess, type EndpointAuth } from './access';

export type { EndpointAccess } from './access';

/** The services of Tabula, as named in ARCHITECTURE.md. */
export const SERVICE_NAMES = ['gateway', 'auth', 'meta', 'data', 'comments', 'storage', 'integrations', 'hooks', 'realtime'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** A zod object schema (path params and query are always objects). */
export type ObjectSchema = z.ZodType<Record<string, unknown>>;

/**
 * One endpoint, defined once: the route validates against it, the typed client
 * calls it, the OpenAPI document describes it.
 */
export interface Endpoint<
  P extends ObjectSchema | undefined = ObjectSchema | undefined,
  Q extends ObjectSchema | undefined = ObjectSchema | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  R extends z.ZodType = z.ZodType,
> {
  /** Unique operation id (camelCase), e.g. `commentCreate`. */
  id: string;
  method: HttpMethod;
  /** OpenAPI form: `/api/v1/db/meta/comment/{commentId}`. */
  path: string;
  service: ServiceName;
  /** Who may call it: the kinds of caller, the permission and where it is checked (see access.ts). */
  auth: EndpointAuth<{ params: Infer<P>; query: Infer<Q>; body: Infer<B> }>;
  /**
   * Derived from `auth` by {@link defineEndpoint}, never written: `public` (no
   * credentials), `user` (checked by the gateway), `internal` (`/internal/...`,
   * service to service only, never routed by the gateway).
   */
  readonly access: EndpointAccess;
  summary: string;
  description?: string;
  tags: readonly string[];
  params?: P;
  query?: Q;
  body?: B;
  /** Body content type when not JSON (e.g. `multipart/form-data`). */
  bodyContentType?: string;
  response: R;
  /** Response content type when not JSON (e.g. `text/html` for a docs page). */
  responseContentType?: string;
  /**
   * How the answer travels when it is no plain request and response:
   * `stream`, a response without end (Server-Sent Events: proxies pass it
   * through unbuffered, with no body timeout); `websocket`, an HTTP Upgrade
   * the gateway hands to the service's socket (a plain request answers 426).
   */
  transport?: 'stream' | 'websocket';
  /** A WebSocket's messages: what the client sends, what the server sends (`x-websocket-messages` in the OpenAPI document). */
  messages?: { client: z.ZodType; server: z.ZodType };
  /** Success status (200 unless said). */
  status?: number;
  /** Error statuses this endpoint answers, besides 400/401/500. */
  errors?: readonly number[];
  example?: { request?: unknown; response?: unknown };
  /**
   * Set by {@link aliasOf}, never written: the operation id of the contract
   * this one is another path of (NocoDB's v2 spelling of a v1 path). Same
   * schemas, access and use case; the route of the original serves it.
   */
  readonly sameAs?: string;
}

/** What a contract file writes: everything but the derived `access` and `sameAs`. */
export type EndpointDefinition<
  P extends ObjectSchema | undefined, Q extends ObjectSchema | undefined, B extends z.ZodType | undefined, R extends z.ZodType,
> = Omit<Endpoint<P, Q, B, R>, 'access' | 'sameAs'>;

/** Anything that is an Endpoint, whatever its schemas. */
export type AnyEndpoint = Endpoint<any, any, any, any>;

type Infer<S> = S extends z.ZodType ? z.infer<S> : undefined;
type InferIn<S> = S extends z.ZodType ? z.input<S> : undefined;
type Parts<E> = E extends Endpoint<infer P, infer Q, infer B, infer R> ? { p: P; q: Q; b: B; r: R } : never;

/** What a route handler receives after validation. */
export interface EndpointInput<E extends AnyEndpoint> {
  params: Infer<Parts<E>['p']>;
  query: Infer<Parts<E>['q']>;
  body: Infer<Parts<E>['b']>;
}

/** What a client passes (schema inputs, before defaults and coercion). */
export type EndpointCall<E extends AnyEndpoint> =
  (Parts<E>['p'] extends z.ZodType ? { params: InferIn<Parts<E>['p']> } : { params?: undefined })
  & (Parts<E>['q'] extends z.ZodType ? { query?: InferIn<Parts<E>['q']> } : { query?: undefined })
  & (Parts<E>['b'] extends z.ZodType ? { body: InferIn<Parts<E>['b']> } : { body?: undefined });

/** The response a handler returns and a client receives. */
export type EndpointResponse<E extends AnyEndpoint> = z.infer<Parts<E>['r']>;

/**
 * Defines an endpoint: checks its access declaration (internal endpoints, and
 * only they, under `/internal/`; a base permission names its scope) and
 * derives the gateway's `access` from it.
 */
export function defineEndpoint<
  P extends ObjectSchema | undefined = undefined,
  Q extends ObjectSchema | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  R extends z.ZodType = z.ZodType,
>(endpoint: EndpointDefinition<P, Q, B, R>): Endpoint<P, Q, B, R> {
  return madeEndpoint(endpoint);
}

function madeEndpoint<E extends EndpointDefinition<any, any, any, any>>(endpoint: E, sameAs?: string): E & { access: EndpointAccess; sameAs?: string } {
  checkAuth(endpoint.id, endpoint.path, endpoint.auth);
  const defined = { ...endpoint, access: accessOf(endpoint.auth), ...(sameAs ? { sameAs } : {}) };
  Object.defineProperty(defined, DEFINED, { value: true });
  return Object.freeze(defined);
}

/** Marks what defineEndpoint made (never enumerable, never serialized). */
const DEFINED = Symbol('tabula.endpoint');

/** The aliases of each contract, in the order they were made. */
const ALIASES = new WeakMap<AnyEndpoint, AnyEndpoint[]>();

/**
 * Another path of a contract: NocoDB serves most of its v1 meta paths under
 * v2 spellings from the same handler (`/api/v1/db/meta/tables/:tableId` and
 * `/api/v2/meta/tables/:tableId`). The alias is a contract of its own (its
 * operation id, in the OpenAPI document, the gateway's table and the access
 * matrix) with the original's schemas and access declaration, and the route
 * of the original serves it too (libs/http `route`). Its path must name the
 * same parameters.
 */
export function aliasOf<E extends AnyEndpoint>(endpoint: E, alias: { id: string; path: string; summary?: string }): E {
  const names = (path: string) => pathParamNames(path).sort().join(',');
  if (names(alias.path) !== names(endpoint.path)) {
    throw new Error(`endpoint ${alias.id}: an alias of ${endpoint.id} names the same path parameters (${names(endpoint.path)})`);
  }
  const { access: _access, sameAs: _sameAs, ...definition } = endpoint;
  const made = madeEndpoint({ ...definition, id: alias.id, path: alias.path, summary: alias.summary ?? endpoint.summary }, endpoint.id);
  ALIASES.set(endpoint, [...(ALIASES.get(endpoint) ?? []), made]);
  return made as E;
}

/** The aliases made of a contract by {@link aliasOf} (none for most). */
export function aliasesOf(endpoint: AnyEndpoint): readonly AnyEndpoint[] {
  return ALIASES.get(endpoint) ?? [];
}

/** True for an endpoint made by {@link defineEndpoint}. */
export function isEndpoint(value: unknown): value is AnyEndpoint {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[DEFINED] === true;
}

/**
 * Every endpoint a contract module exports, by operation id: a service's
 * record lists its modules, so a new contract in one of them is served,
 * routed and documented without being named anywhere else.
 */
export function endpointsIn(...modules: object[]): Record<string, AnyEndpoint> {
  const found = modules.flatMap((m) => Object.values(m)).filter(isEndpoint);
  return Object.fromEntries(found.map((e) => [e.id, e]));
}

/** Names of the `{param}` segments of an OpenAPI path. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((m) => m[1]);
}

/** `/a/{id}` → `/a/:id` (the router's form). */
export function routerPath(path: string): string {
  return path.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1');
}

/** Fills `{param}` segments with URL-encoded values. */
export function fillPath(path: string, params: Record<string, unknown> = {}): string {
  return path.replace(/\{([A-Za-z0-9_]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === null || value === '') throw new Error(`missing path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
}
