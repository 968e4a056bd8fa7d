import pino from 'pino';
import { hooksInternal } from '@tabula/contracts';
import { clientOf, type ServiceClient, type ServiceRequest, type ServiceResponse } from '@tabula/http';
import { SyncHooksClient, type CommittedChange } from '../../services/data/src/adapters/sync-hooks.client';
import type { TableHandle } from '../../services/data/src/context/table-handle';

/**
 * Issue 17 defect 15. The hooks service is played by a client that refuses
 * one tenant's table (as it would a body over its limit) and accepts others:
 * what matters is which calls the data side still makes.
 */
class HooksStandIn implements ServiceClient {
  readonly calls: string[] = [];
  down = false;

  constructor(private readonly refusedTable: string) {}

  async request<T>(_service: string, request: ServiceRequest): Promise<ServiceResponse<T>> {
    const tableId = (request.body as { tableId: string }).tableId;
    this.calls.push(tableId);
    if (this.down) throw new Error('connect ECONNREFUSED');
    if (tableId === this.refusedTable) return { status: 413, body: { error: 'ERR_PAYLOAD_TOO_LARGE' } as T };
    return { status: 200, body: { sync_hooks: true } as T };
  }
}

function handleOf(tableId: string): TableHandle {
  return { baseId: `p_${tableId}`, tableId, model: { context: { table: { title: tableId } } } } as unknown as TableHandle;
}

const change = (id: string): CommittedChange[] => [{ eventId: id, type: 'records.after.insert', change: { op: 'insert', rows: [{ Id: 1 }] } as never }];

describe('security: sync hooks', () => {
  it('defect 15: one table\'s refused dispatch-sync pauses that table only, never other tenants\' sync hooks', async () => {
    const hooks = new HooksStandIn('evil');
    const client = new SyncHooksClient(clientOf(hooks, hooksInternal), pino({ level: 'silent' }), 2_000);
    await client.dispatch(handleOf('evil'), change('e1'));
    await client.dispatch(handleOf('victim'), change('v1'));
    await client.dispatch(handleOf('other'), change('o1'));
    await client.dispatch(handleOf('evil'), change('e2'));
    expect(hooks.calls).toEqual(['evil', 'victim', 'other']);
  });

  it('defect 15: when the hooks service is down (several tables fail), calls pause for everyone and the bus delivers', async () => {
    const hooks = new HooksStandIn('none');
    const client = new SyncHooksClient(clientOf(hooks, hooksInternal), pino({ level: 'silent' }), 60_000);
    hooks.down = true;
    for (const table of ['a', 'b', 'c']) await client.dispatch(handleOf(table), change(table));
    await client.dispatch(handleOf('d'), change('d'));
    expect(hooks.calls).toEqual(['a', 'b', 'c']);
  });
});
