import { withOutbox } from '@tabula/events';
import { z } from 'zod';
import { errors } from '@tabula/http';
import type { MetaPorts } from '../../ports';
import { listTables, updateTable as updateRow, type TableRow } from '../../repositories/table.repository';
import { enqueueTableEvent } from '../../events/meta-event.producer';
import { physicalTableExists, renamePhysicalTable } from '../../ddl/table-ddl';
import type { TableInScope } from '../scopes/meta-scopes';
import { tableNameOf } from '../rules/name-rules';
import { updateTableSchema } from '@tabula/contracts';

/** Renames (title and/or physical name), describes or re-metas a table. */
export async function updateTable(ports: MetaPorts, scope: TableInScope, input: z.infer<typeof updateTableSchema>) {
  const { value: { table, handle }, principal } = scope;
  const others = (await listTables(ports.db, table.base_id)).filter((t) => t.id !== table.id);
  const patch: Partial<TableRow> = {};
  if (input.title !== undefined) {
    if (others.some((t) => t.title.toLowerCase() === input.title!.toLowerCase())) throw errors.badRequest(`Duplicate table title '${input.title}'`, { duplicateAlias: { type: 'table', alias: input.title } });
    patch.title = input.title;
  }
  if (input.table_name !== undefined && input.table_name !== table.table_name) {
    const name = tableNameOf(input.table_name, table.title);
    if (others.some((t) => t.source_id === table.source_id && t.table_name.toLowerCase() === name.toLowerCase()) || await physicalTableExists(handle, name)) {
      throw errors.badRequest(`Duplicate table name '${name}'`);
    }
    patch.table_name = name;
  }
  if (input.description !== undefined) patch.description = input.description;
  if (input.meta !== undefined) patch.meta = input.meta;
  if (patch.table_name) await renamePhysicalTable(handle, table.table_name, patch.table_name);
  await withOutbox(ports.db, ports.relay, async (trx) => {
    await updateRow(trx, table.id, patch);
    await enqueueTableEvent(trx, 'updated', { ...table, ...patch }, principal);
  });
  return { msg: 'The table has been updated successfully' };
}
