import type { z } from 'zod';
import type { MetaPorts } from '../../ports';
import { listSources, type SourceRow } from '../../repositories/source.repository';
import { newId } from '@tabula/db';
import { listTables } from '../../repositories/table.repository';
import { createSourceSchema } from '../../ddl/table-ddl';
import type { BaseInScope } from '../scopes/meta-scopes';
import { storeBase } from './create-base';
import { type TableCopy, copyPhysicalTable, recordTableCopy } from '../tables/copy-table';
import type { duplicateSchema } from '@tabula/contracts';
import { uniqueName } from '../rules/name-rules';
import { copyHooksOf } from '../tables/copy-hooks';

/**
 * Copies a base onto a new default source: every table's schema, its data
 * unless `excludeData`, its views unless `excludeViews` and its hooks unless
 * `excludeHooks`. All or nothing: the physical tables are copied into the new
 * base's own schema first; then one metadata transaction records the base,
 * every table, the owner grant and (last) the hooks copy and the sharing of
 * the source's attachments with the copy (storage). Any failure rolls
 * that transaction back, drops the new schema with every copied table, and
 * removes hooks copied before a failed commit, so no part of the copy remains.
 */
export async function duplicateBase(ports: MetaPorts, scope: BaseInScope, input: z.infer<typeof duplicateSchema>) {
  // The contract admits creators and owners only (as NocoDB): a copy carries the hooks' secrets and
  // makes its maker the owner, so a viewer would read what its role masks. The copy is a new base
  // too: it also declares base create's org permission (and refuses base-scoped tokens).
  const { value: base, principal } = scope;
  const options = input.options;
  const id = newId('p');
  const source = { id: newId('b'), base_id: id, alias: null, type: 'pg', is_meta: true, schema_name: id, order: 1 } as SourceRow;
  const title = input.title ?? `${base.title} copy`;
  await createSourceSchema({ id: source.id, dialect: 'pg', knex: ports.dataDb, schema: id, sharesOutboxDatabase: true, preparedPerConnection: 0 });
  let undoHooks: (() => Promise<void>) | undefined;
  try {
    const sources = new Map((await listSources(ports.db, base.id)).map((s) => [s.id, s]));
    const copies: TableCopy[] = [];
    for (const table of await listTables(ports.db, base.id)) {
      const handle = ports.sources.handleOf(sources.get(table.source_id)!);
      // tables of several sources land in one schema: their physical names must not collide
      const tableName = uniqueName(table.table_name, copies.map((c) => c.row.table_name));
      const names = { title: table.title, tableName, order: table.order ?? copies.length + 1 };
      copies.push(await copyPhysicalTable(ports, { table, handle }, { baseId: id, source }, names, options));
    }
    await storeBase(ports, principal, { title, description: base.description, color: base.color, meta: base.meta }, id, [source], async (trx) => {
      for (const copy of copies) await recordTableCopy(trx, copy, principal, options);
      if (!options.excludeHooks) undoHooks = await copyHooksOf(ports, id, copies);
      // the copied cells hold the source's files: storage makes them the copy's too (links, claims, GC)
      const tables = copies.map((c) => ({ from: c.fromTableId, to: c.row.id, columns: Object.fromEntries(c.columnMap) }));
      if (!options.excludeData) await ports.clients.storage.storageAttachmentsShare({ body: { fromBaseId: base.id, toBaseId: id, tables } });
    });
  } catch (err) {
    await undoHooks?.();
    await ports.dataDb.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [id]).catch(() => undefined);
    throw err;
  }
  return { id, name: title };
}
