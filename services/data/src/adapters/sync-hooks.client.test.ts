import pino from 'pino';
import { hooksInternal } from '@tabula/contracts';
import { clientOf, type ServiceClient, type ServiceRequest, type ServiceResponse } from '@tabula/http';
import { SyncHooksClient, type CommittedChange } from './sync-hooks.client';
import type { TableHandle } from '../context/table-handle';

/** The hooks service played by a client answering `sync_hooks` per table; `during` runs while a call is in flight. */
class HooksStandIn implements ServiceClient {
  readonly calls: string[] = [];
  readonly withSync = new Set<string>();
  readonly withBefore = new Set<string>();
  during?: () => void;

  async request<T>(_service: string, request: ServiceRequest): Promise<ServiceResponse<T>> {
    const tableId = (request.body as { tableId: string }).tableId;
    this.calls.push(tableId);
    this.during?.();
    return { status: 200, body: { sync_hooks: this.withSync.has(tableId), before_hooks: this.withBefore.has(tableId), deliveries: [] } as T };
  }
}

const handleOf = (tableId: string) => ({ baseId: 'p1', tableId, model: { context: { table: { title: tableId } } } }) as unknown as TableHandle;
const change = (op = 'insert'): CommittedChange[] => [{ eventId: 'e', type: 'records.after.insert', change: { op, rows: [{ Id: 1 }] } as never }];

describe('sync hooks: the cached "no sync hooks" flag', () => {
  let now = 0;
  const make = (hooks: HooksStandIn) => new SyncHooksClient(clientOf(hooks, hooksInternal), pino({ level: 'silent' }), 2_000, 10_000, () => now);

  it('asks once per table and change kind, then makes no call until a hook event drops the flag', async () => {
    const hooks = new HooksStandIn();
    const d = make(hooks);
    await d.dispatch(handleOf('t1'), change());
    await d.dispatch(handleOf('t1'), change());
    await d.dispatch(handleOf('t1'), change('bulkInsert'));
    await d.dispatch(handleOf('t2'), change());
    expect(hooks.calls).toEqual(['t1', 't1', 't2']);
    hooks.withSync.add('t1');
    d.invalidate('t2');
    await d.dispatch(handleOf('t1'), change());
    expect(hooks.calls).toHaveLength(3);
    d.invalidate('t1');
    await d.dispatch(handleOf('t1'), change());
    await d.dispatch(handleOf('t1'), change());
    // A table with sync hooks is asked on every write.
    expect(hooks.calls).toEqual(['t1', 't1', 't2', 't1', 't1']);
  });

  it('trusts a flag at most the TTL (a lost hook event)', async () => {
    const hooks = new HooksStandIn();
    const d = make(hooks);
    now = 1_000;
    await d.dispatch(handleOf('t1'), change());
    now = 10_999;
    await d.dispatch(handleOf('t1'), change());
    now = 11_000;
    await d.dispatch(handleOf('t1'), change());
    expect(hooks.calls).toEqual(['t1', 't1']);
  });

  it('does not cache an answer a hook event overtook while it was asked', async () => {
    const hooks = new HooksStandIn();
    const d = make(hooks);
    hooks.during = () => d.invalidate('t1');
    await d.dispatch(handleOf('t1'), change());
    hooks.during = undefined;
    await d.dispatch(handleOf('t1'), change());
    await d.dispatch(handleOf('t1'), change());
    expect(hooks.calls).toEqual(['t1', 't1']);
  });
});

describe('sync hooks: the cached "no before hook" answer', () => {
  let now = 0;
  const make = (hooks: HooksStandIn) => new SyncHooksClient(clientOf(hooks, hooksInternal), pino({ level: 'silent' }), 2_000, 10_000, () => now);

  it('unknown means "may have"; hooks\' "none" holds until a hook event or the TTL drops it', async () => {
    const hooks = new HooksStandIn();
    const d = make(hooks);
    now = 1_000;
    expect(d.mayHaveBeforeHooks('t1')).toBe(true);
    await d.dispatch(handleOf('t1'), change());
    expect(d.mayHaveBeforeHooks('t1')).toBe(false);
    expect(d.mayHaveBeforeHooks('t2')).toBe(true);
    d.invalidate('t1');
    expect(d.mayHaveBeforeHooks('t1')).toBe(true);
    await d.dispatch(handleOf('t1'), change());
    now = 10_999;
    expect(d.mayHaveBeforeHooks('t1')).toBe(false);
    now = 11_000;
    expect(d.mayHaveBeforeHooks('t1')).toBe(true);
    await d.dispatch(handleOf('t1'), change());
    d.invalidate();
    expect(d.mayHaveBeforeHooks('t1')).toBe(true);
  });

  it('a table with a before hook stays "may have"; an answer a hook event overtook is not kept', async () => {
    const hooks = new HooksStandIn();
    const d = make(hooks);
    hooks.withBefore.add('t1');
    await d.dispatch(handleOf('t1'), change());
    expect(d.mayHaveBeforeHooks('t1')).toBe(true);
    hooks.during = () => d.invalidate('t2');
    await d.dispatch(handleOf('t2'), change());
    expect(d.mayHaveBeforeHooks('t2')).toBe(true);
  });

  it('a failed call leaves it unknown ("may have")', async () => {
    const hooks = new HooksStandIn();
    hooks.during = () => { throw new Error('hooks down'); };
    const d = make(hooks);
    await d.dispatch(handleOf('t3'), change());
    expect(d.mayHaveBeforeHooks('t3')).toBe(true);
  });
});
