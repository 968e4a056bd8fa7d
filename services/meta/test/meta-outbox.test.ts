import type { EventBus } from '@tabula/events';
import { startMetaHarness, waitFor, type MetaHarness } from './meta-app.harness';

const P = '/api/v1/db/meta';

/** A broker that is down: every publish fails, so events stay in the outbox. */
function brokerDown(bus: EventBus): EventBus {
  return {
    publish: async () => { throw new Error('broker unavailable'); },
    subscribe: (o) => bus.subscribe(o), ping: () => bus.ping(), close: () => bus.close(),
  };
}

describe('outbox', () => {
  let first: MetaHarness;
  let second: MetaHarness | undefined;
  afterAll(async () => { await second?.stop(); });

  it('delivers meta.table.deleted after a restart when the broker was down at commit time', async () => {
    first = await startMetaHarness({ wrapBus: brokerDown });
    const base = (await first.http.post(`${P}/projects`).set(first.superUser).send({ title: 'Outbox' }).expect(200)).body;
    const table = (await first.http.post(`${P}/projects/${base.id}/tables`).set(first.superUser).send({ title: 'T' }).expect(200)).body;
    await first.http.delete(`${P}/tables/${table.id}`).set(first.superUser).expect(200);
    const pending = await first.shared.db.withSchema('meta').from('outbox').whereNull('published_at').count<{ count: string }[]>('* as count');
    expect(Number(pending[0].count)).toBeGreaterThan(0);
    expect(first.events.some((e) => e.type === 'meta.table.deleted')).toBe(false);
    await first.stop({ keepDatabase: true });

    second = await startMetaHarness({ database: first.database });
    await waitFor(() => second!.events.some((e) => e.type === 'meta.table.deleted' && e.key === table.id));
  });
});
