import { errors } from '@tabula/http';
import type { EndpointInput, integrationStore } from '@tabula/contracts';
import type { IntegrationsPorts } from '../ports';
import { countStoreRecords, getStoreRecord, listStoreRecords, sumStoreFields, type StoreRow } from '../repositories/store.repository';
import type { IntegrationInScope } from './integration-scope';

function present(row: StoreRow) {
  return { key: row.key, value: row.value, created_at: new Date(row.created_at).toISOString(), updated_at: new Date(row.updated_at).toISOString() };
}

/** `POST /api/v2/integrations/{id}/store`: list | get | sum over the integration's own records. */
export async function storeOp(ports: IntegrationsPorts, scope: IntegrationInScope, body: EndpointInput<typeof integrationStore>['body']) {
  const row = scope.value;
  if (body.op === 'get') {
    const found = await getStoreRecord(ports.db, row.id, body.key);
    if (!found) throw errors.notFound('ERR_STORE_RECORD_NOT_FOUND', `No record '${body.key}' in the store of integration '${row.id}'`);
    return present(found);
  }
  if (body.op === 'sum') return sumStoreFields(ports.db, row.id, body.fields);
  const limit = body.limit ?? 25;
  const offset = body.offset ?? 0;
  const [rows, totalRows] = await Promise.all([listStoreRecords(ports.db, row.id, limit, offset), countStoreRecords(ports.db, row.id)]);
  return { list: rows.map(present), pageInfo: { totalRows, limit, offset } };
}
