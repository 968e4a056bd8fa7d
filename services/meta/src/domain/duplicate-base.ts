import type { z } from 'zod';
import type { Principal } from '@tabula/auth';
import type { MetaPorts } from '../ports';
import { listSources } from '../repositories/source.repository';
import { listTables } from '../repositories/table.repository';
import { requireBase } from './access';
import { assertMayCreateBase, createBase } from './create-base';
import { copyTable } from './copy-table';
import type { duplicateSchema } from '@tabula/contracts';

/**
 * Copies a base onto a new default source: every table's schema, its data
 * unless `excludeData` and its views unless `excludeViews`. `excludeHooks` is
 * accepted; hooks are owned by the hooks service, which has no copy endpoint
 * yet, so a copy never has hooks for now.
 */
export async function duplicateBase(ports: MetaPorts, principal: Principal, baseId: string, input: z.infer<typeof duplicateSchema>) {
  const base = await requireBase(ports, principal, baseId, 'base.read');
  assertMayCreateBase(principal);
  const copy = await createBase(ports, principal, {
    title: input.title ?? `${base.title} copy`, description: base.description, color: base.color, meta: base.meta,
    external: false, sources: [],
  });
  const [target] = await listSources(ports.db, copy.id);
  const sources = new Map((await listSources(ports.db, base.id)).map((s) => [s.id, s]));
  for (const table of await listTables(ports.db, base.id)) {
    const handle = ports.sources.handleOf(sources.get(table.source_id)!);
    await copyTable(ports, principal, { table, handle }, { baseId: copy.id, source: target }, table.title, input.options);
  }
  return { id: copy.id, name: copy.title };
}
