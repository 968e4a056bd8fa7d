import { z } from 'zod';

/** Integration type values (spec "Integration"). */
export const INTEGRATION_TYPES = [
  'database', 'ai', 'auth', 'sync', 'communication', 'spread-sheet', 'project-management', 'crm', 'marketing', 'ats',
  'development', 'finance', 'ticketing', 'storage', 'others',
] as const;

/** One of {@link INTEGRATION_TYPES}. */
export type IntegrationType = (typeof INTEGRATION_TYPES)[number];

/** `true`/`false` as text in a query string (NocoDB flags). */
export const flagQuery = z.enum(['true', 'false']).optional().transform((v) => v === 'true');

/** A free-form JSON object (config, meta). */
export const jsonObject = z.record(z.string(), z.unknown());

/** A data source built on an integration (includeSources=true). */
export const integrationSourceSchema = z.object({
  id: z.string(),
  base_id: z.string(),
  alias: z.string().nullable().optional(),
  type: z.string().optional(),
});

/** An integration as NocoDB names its fields. */
export const integrationSchema = z.object({
  id: z.string(),
  title: z.string().describe('Name, at most 128 characters'),
  type: z.enum(INTEGRATION_TYPES),
  sub_type: z.string(),
  enabled: z.boolean(),
  is_private: z.boolean().describe('Visible to its creator only'),
  is_default: z.boolean().describe('The default integration of its type'),
  created_by: z.string(),
  fk_workspace_id: z.string().nullable(),
  meta: jsonObject.nullable(),
  /** Present with includeConfig=true: whole for the creator, masked for other org admins. */
  config: jsonObject.optional(),
  /** True when `config` had its secret fields replaced. */
  config_masked: z.boolean().optional(),
  /** Present with includeSources=true. */
  sources: z.array(integrationSourceSchema).optional(),
  /** Present on database integrations with includeDatabaseInfo=true: host/port/database, never secrets. */
  dbInfo: jsonObject.optional(),
  created_at: z.string(),
  updated_at: z.string(),
});

/** The integration resource. */
export type Integration = z.infer<typeof integrationSchema>;

/** Path params naming one integration. */
export const integrationIdParams = z.object({ integrationId: z.string().min(1).max(64) });
