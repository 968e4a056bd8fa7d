import { parseRowId, recordNotFound } from '../model/row-id';
import type { ApiRecord } from '../presenters/record.presenter';
import { readBack } from './record-reader';
import type { DataPorts } from '../ports';

/**
 * Internal read of one record by table id and primary key (all columns), for
 * services that authorized their caller themselves (comments, hooks' manual
 * trigger). 404 ERR_TABLE_NOT_FOUND / ERR_RECORD_NOT_FOUND.
 */
export async function readRecordById(ports: DataPorts, tableId: string, recordId: string): Promise<{ record: ApiRecord }> {
  const handle = await ports.tables.resolveById(tableId);
  const key = parseRowId(handle.model, recordId);
  if (!key) throw recordNotFound(recordId);
  const [record] = await readBack(handle.source.knex, handle, [key]);
  if (!record) throw recordNotFound(recordId);
  return { record };
}
