import type { z } from 'zod';
import type { IntegrationType } from '@tabula/contracts';

/** One sub-type of the registry: its config schema and what is secret in it. */
export interface SubTypeDefinition {
  type: IntegrationType;
  sub_type: string;
  title: string;
  icon: string;
  /** The config schema (zod; published as JSON Schema). */
  schema: z.ZodType<Record<string, unknown>>;
  /** Dotted paths of secret config fields: masked for non-owners, never in dbInfo. */
  secret_fields: string[];
  /** Endpoints this sub-type answers. */
  endpoints: string[];
  /** Dotted paths shown as `dbInfo` (includeDatabaseInfo=true). */
  dbInfo?: string[];
}
