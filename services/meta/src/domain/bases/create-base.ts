import { withOutbox } from '@tabula/events';
import { z } from 'zod';
import { errors, AppError } from '@tabula/http';
import type { Knex } from 'knex';
import type { Principal } from '@tabula/auth';
import type { MetaPorts } from '../../ports';
import { newId } from '@tabula/db';
import { findBase, insertBase, nextBaseOrder } from '../../repositories/base.repository';
import { findSource, insertSource, type SourceRow } from '../../repositories/source.repository';
import { enqueueBaseEvent } from '../../events/meta-event.producer';
import { createSourceSchema } from '../../ddl/table-ddl';
import { checkExternalSource, importSourceTables } from '../sources/external-source';
import { resolveIntegrationSources } from '../sources/integration-sources';
import type { SealedSourceConfig } from '../../sources/source-registry';
import type { createBaseSchema } from '@tabula/contracts';

/** A base's `meta` sent as an object or as JSON text. */
export function metaObject(meta: unknown): Record<string, unknown> | null {
  if (typeof meta !== 'string') return (meta as Record<string, unknown> | null) ?? null;
  try { return JSON.parse(meta) as Record<string, unknown>; } catch { throw errors.badRequest('meta must be an object or JSON text'); }
}

/**
 * Makes the creator the base's owner in the auth service (the source of truth
 * for roles), or throws: auth's own 4xx, else 503. Callers run it inside the
 * metadata transaction that stores the base, as its last step before the
 * commit, so a base and its owner are one outcome (issue 9 item 18):
 * - the grant fails: the transaction rolls back, nothing was created;
 * - the grant succeeds and the commit then fails (or the process dies in
 *   between): auth holds a membership naming a base id that never existed
 *   (ids are random and never reused), which grants access to nothing.
 * Never a base without an owner. Preferred over an outbox event consumed by
 * auth because the creator must be able to use the base as soon as the create
 * answers, which an asynchronous grant cannot promise; and over a compensating
 * delete after the commit, which a crash would skip. The grant is idempotent
 * (auth announces nothing when the role is already the one asked).
 */
export async function grantOwner(ports: MetaPorts, baseId: string, principal: Principal): Promise<void> {
  try {
    await ports.clients.auth.setRole({ params: { baseId, userId: principal.id }, body: { role: 'owner' } });
  } catch (err) {
    const status = (err as { status?: number }).status ?? 503;
    ports.logger.warn({ baseId, status, reason: (err as Error).message }, 'could not record the base owner in auth; the base is not created');
    if (err instanceof AppError && status < 500) throw err;
    throw errors.unavailable('The base could not be created: its owner could not be recorded, try again');
  } finally {
    ports.baseAccess.invalidate(baseId, principal.id);
  }
}

/** Creates a base with its default source (a schema of the data database) or its external sources (the contract admits org-level creators). */
export async function createBase(ports: MetaPorts, principal: Principal, input: z.infer<typeof createBaseSchema>) {
  if (input.external && input.sources.length === 0) throw errors.badRequest('sources is required when external is true');
  const given = input.external ? await resolveIntegrationSources(ports, principal, input.sources) : [];
  const sealed: SealedSourceConfig[] = [];
  for (const s of given) sealed.push(await checkExternalSource(s.type, s.config, { dataDir: ports.platform.DATA_DIR, allowLocal: ports.config.SVC_ALLOW_LOCAL_SOURCES }));
  const id = newId('p');
  const sources: Partial<SourceRow>[] = input.external
    ? given.map((s, i) => ({
      id: newId('b'), base_id: id, alias: s.alias ?? null, type: s.type, is_meta: false, config: ports.sources.seal(sealed[i]), order: i + 1,
      fk_integration_id: s.fk_integration_id ?? null,
    }))
    : [{ id: newId('b'), base_id: id, alias: null, type: 'pg', is_meta: true, schema_name: id, order: 1 }];
  if (!input.external) await createSourceSchema({ id: sources[0].id!, dialect: 'pg', knex: ports.dataDb, schema: id, sharesOutboxDatabase: true, preparedPerConnection: 0 });
  try {
    await storeBase(ports, principal, input, id, sources);
  } catch (err) {
    // undo what lives outside the metadata transaction: the schema and any pool opened for introspection
    if (!input.external) await ports.dataDb.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [id]).catch(() => undefined);
    for (const s of sources) await ports.sources.release(s.id!);
    throw err;
  }
  return (await findBase(ports.db, id))!;
}

/**
 * Stores a base and its sources with the created event, runs `more` (a
 * duplicate records its tables there) and grants the owner, all in one
 * metadata transaction.
 */
export async function storeBase(
  ports: MetaPorts, principal: Principal, input: Pick<z.infer<typeof createBaseSchema>, 'title' | 'description' | 'color' | 'meta'>,
  id: string, sources: Partial<SourceRow>[], more?: (trx: Knex.Transaction) => Promise<void>,
): Promise<void> {
  await withOutbox(ports.db, ports.relay, async (trx) => {
    await insertBase(trx, {
      id, title: input.title, description: input.description ?? null, color: input.color ?? null, meta: metaObject(input.meta),
      order: await nextBaseOrder(trx), created_by: principal.id, deleted: false,
    });
    for (const s of sources) await insertSource(trx, s);
    await enqueueBaseEvent(trx, 'created', { id, title: input.title }, principal);
    for (const s of sources.filter((x) => !x.is_meta)) {
      await importSourceTables(trx, { id: s.id!, base_id: id }, ports.sources.handleOf((await findSource(trx, s.id!))!), principal);
    }
    await more?.(trx);
    await grantOwner(ports, id, principal);
  });
}
