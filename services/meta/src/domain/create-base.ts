import { z } from 'zod';
import { errors } from '@tabula/http';
import { isSuper, type Principal } from '@tabula/auth';
import type { MetaPorts } from '../app';
import { newId } from '../lib/ids';
import { inMetaTransaction } from '../lib/unit-of-work';
import { findBase, insertBase, nextBaseOrder } from '../repositories/base.repository';
import { findSource, insertSource, type SourceRow } from '../repositories/source.repository';
import { enqueueBaseEvent } from '../events/meta-event.producer';
import { createSourceSchema } from '../ddl/table-ddl';
import { checkExternalSource, importSourceTables } from './external-source';
import type { SealedSourceConfig } from '../sources/source-registry';

/** Body of base create (spec "Bases"). */
export const createBaseSchema = z.object({
  title: z.string().trim().min(1, 'title is required').max(255),
  description: z.string().max(8192).nullish(),
  color: z.string().regex(/^#[0-9a-fA-F]{3,8}$/, 'color must be a hex color').nullish(),
  meta: z.union([z.record(z.string(), z.unknown()), z.string()]).nullish(),
  external: z.boolean().default(false),
  sources: z.array(z.object({ type: z.enum(['pg', 'mysql2', 'sqlite3']), config: z.unknown(), alias: z.string().optional() }).passthrough()).default([]),
}).passthrough();

/** Only org-level creators (and super) create bases; a base-scoped API token acts only inside its base. */
export function assertMayCreateBase(principal: Principal): void {
  if (principal.baseScope) throw errors.forbidden('Forbidden - a base-scoped API token acts only inside its base');
  if (!isSuper(principal) && !principal.roles.includes('org-level-creator')) {
    throw errors.forbidden(`Forbidden - role '${principal.roles.join(',') || 'none'}' may not create bases`);
  }
}

/** A base's `meta` sent as an object or as JSON text. */
export function metaObject(meta: unknown): Record<string, unknown> | null {
  if (typeof meta !== 'string') return (meta as Record<string, unknown> | null) ?? null;
  try { return JSON.parse(meta) as Record<string, unknown>; } catch { throw errors.badRequest('meta must be an object or JSON text'); }
}

/** Makes the creator the base's owner in the auth service (the source of truth for roles). */
export async function grantOwner(ports: MetaPorts, baseId: string, principal: Principal): Promise<void> {
  const res = await ports.services.request('auth', {
    method: 'PUT', path: `/internal/bases/${encodeURIComponent(baseId)}/members/${encodeURIComponent(principal.id)}`, body: { role: 'owner' },
  }).catch((err: unknown) => ({ status: 503, body: err }));
  if (res.status >= 300) ports.logger.warn({ baseId, status: res.status }, 'could not record the base owner in auth');
  ports.baseAccess.invalidate(baseId, principal.id);
}

/** Creates a base with its default source (a schema of the data database) or its external sources. */
export async function createBase(ports: MetaPorts, principal: Principal, input: z.infer<typeof createBaseSchema>) {
  assertMayCreateBase(principal);
  if (input.external && input.sources.length === 0) throw errors.badRequest('sources is required when external is true');
  const sealed: SealedSourceConfig[] = [];
  if (input.external) for (const s of input.sources) sealed.push(await checkExternalSource(s.type, s.config, { dataDir: ports.platform.DATA_DIR, allowLocal: ports.config.SVC_ALLOW_LOCAL_SOURCES }));
  const id = newId('p');
  const sources: Partial<SourceRow>[] = input.external
    ? input.sources.map((s, i) => ({ id: newId('b'), base_id: id, alias: s.alias ?? null, type: s.type, is_meta: false, config: ports.sources.seal(sealed[i]), order: i + 1 }))
    : [{ id: newId('b'), base_id: id, alias: null, type: 'pg', is_meta: true, schema_name: id, order: 1 }];
  if (!input.external) await createSourceSchema({ id: sources[0].id!, dialect: 'pg', knex: ports.dataDb, schema: id });
  try {
    await storeBase(ports, principal, input, id, sources);
  } catch (err) {
    // undo what lives outside the metadata transaction: the schema and any pool opened for introspection
    if (!input.external) await ports.dataDb.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [id]).catch(() => undefined);
    for (const s of sources) await ports.sources.release(s.id!);
    throw err;
  }
  await grantOwner(ports, id, principal);
  return (await findBase(ports.db, id))!;
}

async function storeBase(
  ports: MetaPorts, principal: Principal, input: z.infer<typeof createBaseSchema>, id: string, sources: Partial<SourceRow>[],
): Promise<void> {
  await inMetaTransaction(ports, async (trx) => {
    await insertBase(trx, {
      id, title: input.title, description: input.description ?? null, color: input.color ?? null, meta: metaObject(input.meta),
      order: await nextBaseOrder(trx), created_by: principal.id, deleted: false,
    });
    for (const s of sources) await insertSource(trx, s);
    await enqueueBaseEvent(trx, 'created', { id, title: input.title }, principal);
    for (const s of sources.filter((x) => !x.is_meta)) {
      await importSourceTables(trx, { id: s.id!, base_id: id }, ports.sources.handleOf((await findSource(trx, s.id!))!), principal);
    }
  });
}
