import { z } from 'zod';
import { INTEGRATION_TYPES, type IntegrationType } from '@tabula/contracts';
import { AppError, errors } from '@tabula/http';
import type { SubTypeDefinition } from './type-definition';
import { databaseTypes } from './database-types';
import { aiTypes } from './ai-types';

const ALL: SubTypeDefinition[] = [...databaseTypes, ...aiTypes];

/** The sub-type definition, or 404 naming what is unknown. */
export function subTypeOf(type: string, subType: string): SubTypeDefinition {
  if (!(INTEGRATION_TYPES as readonly string[]).includes(type)) throw errors.notFound('ERR_INTEGRATION_TYPE_NOT_FOUND', `Unknown integration type '${type}'`);
  const found = ALL.find((d) => d.type === type && d.sub_type === subType);
  if (!found) throw errors.notFound('ERR_INTEGRATION_TYPE_NOT_FOUND', `Unknown sub-type '${subType}' of integration type '${type}'`);
  return found;
}

/** Like {@link subTypeOf} but answers 400 (bad input of a create). */
export function requireSubType(type: string, subType: string): SubTypeDefinition {
  try {
    return subTypeOf(type, subType);
  } catch (err) {
    if (err instanceof AppError) throw errors.badRequest(err.message);
    throw err;
  }
}

/** Every type of the spec with its sub-types (types without a built-in sub-type list none). */
export function typeList(): { type: IntegrationType; subTypes: SubTypeDefinition[] }[] {
  return INTEGRATION_TYPES.map((type) => ({ type, subTypes: ALL.filter((d) => d.type === type) }));
}

/** The public description of a sub-type. */
export function describeSubType(d: SubTypeDefinition, withSchema = false) {
  const base = { type: d.type, sub_type: d.sub_type, title: d.title, icon: d.icon, secret_fields: d.secret_fields, endpoints: d.endpoints };
  return withSchema ? { ...base, schema: z.toJSONSchema(d.schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown> } : base;
}

/** Validates a config against its sub-type's schema; 400 naming the failing field. */
export function validateConfig(d: SubTypeDefinition, config: Record<string, unknown>): Record<string, unknown> {
  const parsed = d.schema.safeParse(config);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = ['config', ...issue.path.map(String)].join('.');
  throw errors.badRequest(`${field}: ${issue.message}`, { field, issues: parsed.error.issues.map((i) => ({ path: ['config', ...i.path.map(String)].join('.'), message: i.message })) });
}
