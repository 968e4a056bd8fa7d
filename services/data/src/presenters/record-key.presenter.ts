import type { TableModel } from '../model/table-model';
import type { ApiRecord } from './record.presenter';

/** A record's primary key as NocoDB v2 writes answer it: `{ Id: 1 }` (every key column of a composite key). */
export function presentKey(model: TableModel, record: ApiRecord): ApiRecord {
  const key: ApiRecord = {};
  for (const pk of model.primaryKeys) key[pk.title] = record[pk.title];
  return key;
}

/** The keys of written records: one object for a one-object body, an array for an array body. */
export function presentKeys(model: TableModel, records: ApiRecord[], many: boolean): ApiRecord | ApiRecord[] {
  const keys = records.map((r) => presentKey(model, r));
  return many ? keys : keys[0];
}
