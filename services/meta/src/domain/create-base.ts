import { z } from 'zod';
import { clientOf, errors } from '@tabula/http';
import { isSuper, type Principal } from '@tabula/auth';
import type { MetaPorts } from '../ports';
import { newId } from '../lib/ids';
import { inMetaTransaction } from '../lib/unit-of-work';
import { findBase, insertBase, nextBaseOrder } from '../repositories/base.repository';
import { findSource, insertSource, type SourceRow } from '../repositories/source.repository';
import { enqueueBaseEvent } from '../events/meta-event.producer';
import { createSourceSchema } from '../ddl/table-ddl';
import { checkExternalSource, importSourceTables } from './external-source';
import type { SealedSourceConfig } from '../sources/source-registry';
import { authInternal, createBaseSchema } from '@tabula/contracts';

/** Only org-level creators (and super) create bases. */
export function assertMayCreateBase(principal: Principal): void {
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
  await clientOf(ports.services, authInternal).setRole({ params: { baseId, userId: principal.id }, body: { role: 'owner' } })
    .catch((err: unknown) => ports.logger.warn({ baseId, status: (err as { status?: number }).status ?? 503 }, 'could not record the base owner in auth'));
  ports.baseAccess.invalidate(baseId, principal.id);
}

/** Creates a base with its default source (a schema of the data database) or its external sources. */
export async function createBase(ports: MetaPorts, principal: Principal, input: z.infer<typeof createBaseSchema>) {
  assertMayCreateBase(principal);
  if (input.external && input.sources.length === 0) throw errors.badRequest('sources is required when external is true');
  const sealed: SealedSourceConfig[] = [];
  if (input.external) for (const s of input.sources) sealed.push(await checkExternalSource(s.type, s.config, ports.platform.DATA_DIR));
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
