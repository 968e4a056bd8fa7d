import { z } from 'zod';
import { pathParamNames, type AnyEndpoint } from '../endpoint/define-endpoint';
import { errorBodySchema } from '../common/error-body';

type JsonSchema = Record<string, unknown>;

/** Information block of a generated document. */
export interface OpenApiInfo {
  title: string;
  version: string;
  description?: string;
  servers?: Array<{ url: string; description?: string }>;
}

const STATUS_TEXT: Record<number, string> = {
  101: 'Switching protocols (WebSocket)', 200: 'OK', 201: 'Created', 204: 'No content', 206: 'Partial content', 302: 'Redirect', 400: 'Bad request',
  401: 'Authentication required', 403: 'Forbidden', 404: 'Not found', 409: 'Conflict', 413: 'Payload too large',
  422: 'Unprocessable', 426: 'Upgrade required', 429: 'Too many requests', 500: 'Internal error', 503: 'Service unavailable',
};

/** Responses may carry more fields than a contract lists (NocoDB shapes are open): drop `additionalProperties: false`. */
function opened(node: unknown): void {
  if (Array.isArray(node)) { node.forEach(opened); return; }
  if (!node || typeof node !== 'object') return;
  const obj = node as JsonSchema;
  if (obj.additionalProperties === false) delete obj.additionalProperties;
  Object.values(obj).forEach(opened);
}

function hasRootRef(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(hasRootRef);
  if (!node || typeof node !== 'object') return false;
  const obj = node as JsonSchema;
  return obj.$ref === '#' || Object.values(obj).some(hasRootRef);
}

/** A schema recursing into its own root (`$ref: '#'`) becomes a named `$defs` entry, which a document can host. */
function unrootRecursion(out: JsonSchema): JsonSchema {
  if (!hasRootRef(out)) return out;
  const { $defs, ...root } = out;
  rewriteRefs(root, new Map([['#', '#/$defs/__root']]));
  return { $ref: '#/$defs/__root', $defs: { ...($defs as JsonSchema | undefined), __root: root } };
}

/** JSON Schema (2020-12, the dialect of OpenAPI 3.1) of a zod schema; response schemas are left open. */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const out = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
  delete out.$schema;
  if (io === 'output') opened(out);
  return unrootRecursion(out);
}

function parameters(endpoint: AnyEndpoint): JsonSchema[] {
  const result: JsonSchema[] = [];
  const pathSchema = endpoint.params ? jsonSchemaOf(endpoint.params, 'input') : { properties: {} };
  const pathProps = (pathSchema.properties ?? {}) as Record<string, JsonSchema>;
  for (const name of pathParamNames(endpoint.path)) {
    result.push({ name, in: 'path', required: true, schema: pathProps[name] ?? { type: 'string' } });
  }
  if (endpoint.query) {
    const q = jsonSchemaOf(endpoint.query, 'input');
    const required = new Set((q.required as string[] | undefined) ?? []);
    for (const [name, schema] of Object.entries((q.properties ?? {}) as Record<string, JsonSchema>)) {
      const isArray = schema.type === 'array';
      result.push({
        name, in: 'query', required: required.has(name), schema,
        ...(typeof schema.description === 'string' ? { description: schema.description } : {}),
        ...(isArray ? { style: 'form', explode: true } : {}),
      });
    }
  }
  return result;
}

function security(endpoint: AnyEndpoint): JsonSchema[] | undefined {
  if (endpoint.access === 'public') return [];
  if (!endpoint.auth.callers.includes('orgToken')) return [{ xcAuth: [] }, { bearer: [] }];
  return [{ xcAuth: [] }, { xcToken: [] }, { bearer: [] }];
}

/** The access declaration as the docs show it (`x-tabula-access`). */
function accessNote(endpoint: AnyEndpoint): JsonSchema {
  const { callers, permission, scope, ticket } = endpoint.auth;
  return {
    callers: [...callers], ...(permission ? { permission: typeof permission === 'string' ? permission : [...permission] } : {}), ...(scope ? { scope: scope.via } : {}),
    ...(ticket ? { ticket: true } : {}), ...(endpoint.transport ? { transport: endpoint.transport } : {}),
  };
}

function operation(endpoint: AnyEndpoint): JsonSchema {
  const ok = endpoint.status ?? 200;
  const responses: Record<string, JsonSchema> = {
    [ok]: ok === 204 || ok === 101 ? { description: STATUS_TEXT[ok] } : {
      description: STATUS_TEXT[ok] ?? 'OK',
      content: { [endpoint.responseContentType ?? 'application/json']: { schema: jsonSchemaOf(endpoint.response, 'output'), ...(endpoint.example?.response !== undefined ? { example: endpoint.example.response } : {}) } },
    },
  };
  const errorStatuses = new Set([400, ...(endpoint.access === 'public' ? [] : [401]), ...(endpoint.errors ?? [])]);
  for (const status of [...errorStatuses].sort()) {
    responses[status] = { description: STATUS_TEXT[status] ?? 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
  }
  const op: JsonSchema = {
    operationId: endpoint.id, summary: endpoint.summary, tags: endpoint.tags,
    parameters: parameters(endpoint), responses, security: security(endpoint), 'x-tabula-access': accessNote(endpoint),
  };
  if (endpoint.description) op.description = endpoint.description;
  // A WebSocket's messages, each way (OpenAPI has no words for them).
  if (endpoint.messages) op['x-websocket-messages'] = { client: jsonSchemaOf(endpoint.messages.client, 'input'), server: jsonSchemaOf(endpoint.messages.server, 'output') };
  if (endpoint.body) {
    const contentType = endpoint.bodyContentType ?? 'application/json';
    op.requestBody = {
      required: true,
      content: { [contentType]: { schema: jsonSchemaOf(endpoint.body, 'input'), ...(endpoint.example?.request !== undefined ? { example: endpoint.example.request } : {}) } },
    };
  }
  return op;
}

function rewriteRefs(node: unknown, mapping: Map<string, string>): void {
  if (Array.isArray(node)) { node.forEach((n) => rewriteRefs(n, mapping)); return; }
  if (!node || typeof node !== 'object') return;
  const obj = node as JsonSchema;
  if (typeof obj.$ref === 'string' && mapping.has(obj.$ref)) obj.$ref = mapping.get(obj.$ref);
  Object.values(obj).forEach((v) => rewriteRefs(v, mapping));
}

/**
 * Recursive zod schemas come out with local `$defs` and `#/$defs/...` refs,
 * which an OpenAPI document resolves from its root: move them to
 * `components.schemas` under unique names.
 */
function hoistDefs(node: unknown, components: Record<string, unknown>): void {
  if (Array.isArray(node)) { node.forEach((n) => hoistDefs(n, components)); return; }
  if (!node || typeof node !== 'object') return;
  const obj = node as JsonSchema;
  const defs = obj.$defs as Record<string, JsonSchema> | undefined;
  if (defs) {
    delete obj.$defs;
    const mapping = new Map<string, string>();
    for (const name of Object.keys(defs)) {
      let target = 'Recursive';
      for (let i = 1; components[target] !== undefined; i++) target = `Recursive${i}`;
      components[target] = defs[name];
      mapping.set(`#/$defs/${name}`, `#/components/schemas/${target}`);
    }
    rewriteRefs(obj, mapping);
    for (const def of Object.values(defs)) { rewriteRefs(def, mapping); hoistDefs(def, components); }
  }
  Object.values(obj).forEach((v) => hoistDefs(v, components));
}

/** The OpenAPI 3.1 document of a set of endpoints (internal ones are left out). */
export function buildOpenApi(endpoints: readonly AnyEndpoint[], info: OpenApiInfo): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const seen = new Set<string>();
  for (const endpoint of endpoints) {
    if (endpoint.access === 'internal') continue;
    if (seen.has(endpoint.id)) throw new Error(`duplicate operation id ${endpoint.id}`);
    seen.add(endpoint.id);
    const item = (paths[endpoint.path] ??= {});
    const method = endpoint.method.toLowerCase();
    if (item[method]) throw new Error(`duplicate operation ${endpoint.method} ${endpoint.path}`);
    item[method] = operation(endpoint);
  }
  const schemas: Record<string, unknown> = { Error: jsonSchemaOf(errorBodySchema, 'output') };
  hoistDefs(paths, schemas);
  const tags = [...new Set(endpoints.filter((e) => e.access !== 'internal').flatMap((e) => e.tags))].sort().map((name) => ({ name }));
  return {
    openapi: '3.1.0',
    info: { title: info.title, version: info.version, ...(info.description ? { description: info.description } : {}) },
    servers: info.servers ?? [{ url: '/' }],
    tags,
    paths,
    components: {
      securitySchemes: {
        xcAuth: { type: 'apiKey', in: 'header', name: 'xc-auth', description: 'JWT from sign-in' },
        xcToken: { type: 'apiKey', in: 'header', name: 'xc-token', description: 'API token' },
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      },
      schemas,
    },
  };
}
