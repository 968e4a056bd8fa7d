import type { Integration } from '@tabula/contracts';
import type { IntegrationRow } from '../repositories/integration.repository';
import type { SubTypeDefinition } from '../registry/type-definition';
import { maskConfig, pathValue } from '../domain/config-paths';
import type { ConfigVisibility } from '../domain/integration-access';

/** What to add to the bare resource. */
export interface PresentOptions {
  /** The decrypted config and how much of it the caller may see. */
  config?: { value: Record<string, unknown>; visibility: ConfigVisibility; secretFields: string[] };
  sources?: Integration['sources'];
  /** Database info (host/port/database; never a secret). */
  dbInfo?: { value: Record<string, unknown>; definition: SubTypeDefinition };
}

/** Row → NocoDB-named integration. */
export function presentIntegration(row: IntegrationRow, options: PresentOptions = {}): Integration {
  const out: Integration = {
    id: row.id, title: row.title, type: row.type as Integration['type'], sub_type: row.sub_type, enabled: row.enabled,
    is_private: row.is_private, is_default: row.is_default, created_by: row.created_by, fk_workspace_id: row.fk_workspace_id,
    meta: row.meta, created_at: new Date(row.created_at).toISOString(), updated_at: new Date(row.updated_at).toISOString(),
  };
  const c = options.config;
  if (c && c.visibility === 'whole') out.config = c.value;
  if (c && c.visibility === 'masked') Object.assign(out, { config: maskConfig(c.value, c.secretFields), config_masked: true });
  if (options.sources) out.sources = options.sources;
  if (options.dbInfo) out.dbInfo = dbInfoOf(options.dbInfo.value, options.dbInfo.definition);
  return out;
}

/** host/port/database (or the sub-type's own info fields) of a database config. */
export function dbInfoOf(config: Record<string, unknown>, d: SubTypeDefinition): Record<string, unknown> {
  const info: Record<string, unknown> = { client: d.sub_type };
  for (const dotted of d.dbInfo ?? []) {
    if (d.secret_fields.includes(dotted)) continue;
    const v = pathValue(config, dotted);
    if (v !== undefined) info[dotted.split('.').pop()!] = v;
  }
  return info;
}
