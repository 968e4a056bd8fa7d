import type { ColumnInfo } from '@tabula/contracts';
import { isAutoUidt, isSwaggerStringUidt, isVirtualUidt } from '@tabula/query';

type Schema = Record<string, unknown>;

/** A table with its columns, as the base's document describes it. */
export interface SwaggerTable {
  id: string;
  title: string;
  columns: ColumnInfo[];
}

const HIDDEN = new Set(['created_by', 'updated_by', 'nc_order']);
const DATE_TIME = { type: 'string', description: 'YYYY-MM-DD HH:mm:ss+00:00', example: '2024-01-31 21:30:00+00:00' };

/** The JSON Schema of a column's value as the records API answers it (compat-notes "Records (v1)"). */
export function valueSchema(c: ColumnInfo): Schema {
  const options = c.colOptions?.options?.map((o) => o.title) ?? [];
  if (isSwaggerStringUidt(c.uidt)) return { type: 'string' };
  switch (c.uidt) {
    case 'Email': return { type: 'string', format: 'email' };
    case 'URL': return { type: 'string', description: 'URL' };
    case 'UUID': return { type: 'string', format: 'uuid' };
    case 'Number': case 'Rating': case 'Year': case 'AutoNumber': return { type: 'integer' };
    case 'ID': return c.dt && /char|text|uuid/i.test(c.dt) ? { type: 'string' } : { type: 'integer' };
    case 'Decimal': case 'Currency': case 'Percent': case 'Duration': return { type: 'number' };
    case 'Checkbox': return { type: 'boolean' };
    case 'Date': return { type: 'string', format: 'date' };
    case 'Time': return { type: 'string', description: 'HH:mm:ss', example: '10:00:00' };
    case 'DateTime': case 'CreatedTime': case 'LastModifiedTime': return DATE_TIME;
    case 'SingleSelect': return options.length ? { type: 'string', enum: options } : { type: 'string' };
    case 'MultiSelect': return { type: 'string', description: `Comma-separated options${options.length ? `: ${options.join(', ')}` : ''}` };
    case 'Attachment': return { type: 'array', items: { type: 'object', additionalProperties: true, properties: { url: { type: 'string' }, title: { type: 'string' }, mimetype: { type: 'string' }, size: { type: 'number' } } } };
    case 'JSON': return {};
    default: return {};
  }
}

/** What a client may write to a column (MultiSelect also takes an array). */
function inputSchema(c: ColumnInfo): Schema {
  if (c.uidt === 'MultiSelect') return { anyOf: [valueSchema(c), { type: 'array', items: { type: 'string' } }] };
  return valueSchema(c);
}

const nullable = (s: Schema): Schema => (Object.keys(s).length === 0 ? s : { anyOf: [s, { type: 'null' }] });

/** The record schema (read) and the request schema (write) of a table. */
export function tableSchemas(table: SwaggerTable): { record: Schema; request: Schema } {
  const shown = table.columns.filter((c) => !HIDDEN.has(c.column_name) && !isVirtualUidt(c.uidt));
  const record: Schema = {
    type: 'object', additionalProperties: true,
    properties: Object.fromEntries(shown.map((c) => [c.title, { ...nullable(valueSchema(c)), ...(c.description ? { description: c.description } : {}) }])),
    required: shown.filter((c) => c.pk).map((c) => c.title),
  };
  const writable = shown.filter((c) => !(c.system || c.ai || isAutoUidt(c.uidt)));
  const request: Schema = {
    type: 'object', additionalProperties: false,
    properties: Object.fromEntries(writable.map((c) => [c.title, c.rqd ? inputSchema(c) : nullable(inputSchema(c))])),
    required: writable.filter((c) => c.rqd && c.cdf === null).map((c) => c.title),
  };
  return { record, request };
}
