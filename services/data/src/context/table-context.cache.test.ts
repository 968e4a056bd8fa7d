import { TableContextCache } from './table-context.cache';

type V = { baseId: string; tableId: string; n: number; dependsOn?: string[] };

describe('TableContextCache', () => {
  let clock = 0;
  const make = (ttl = 1000) => new TableContextCache<V>(ttl, 100, () => clock);
  beforeEach(() => { clock = 0; });

  it('loads once per key and serves hits until the TTL', async () => {
    const cache = make();
    let loads = 0;
    const load = async () => ({ baseId: 'p1', tableId: 'm1', n: ++loads });
    const [a, b] = await Promise.all([cache.get('p1', 'T', load), cache.get('p1', 'T', load)]);
    expect(a.n).toBe(1);
    expect(b.n).toBe(1);
    clock = 999;
    expect((await cache.get('p1', 'T', load)).n).toBe(1);
    clock = 1001;
    expect((await cache.get('p1', 'T', load)).n).toBe(2);
  });

  it('drops every spelling of a table on invalidate, and whole bases', async () => {
    const cache = make();
    let loads = 0;
    const load = (tableId: string) => async () => ({ baseId: 'p1', tableId, n: ++loads });
    await cache.get('p1', 'Title', load('m1'));
    await cache.get('Base', 'm1', load('m1'));
    await cache.get('p1', 'Other', load('m2'));
    cache.invalidate({ tableId: 'm1' });
    expect((await cache.get('p1', 'Title', load('m1'))).n).toBe(4);
    expect((await cache.get('p1', 'Other', load('m2'))).n).toBe(3);
    cache.invalidate({ baseId: 'p1' });
    expect((await cache.get('p1', 'Other', load('m2'))).n).toBe(5);
  });

  it('drops the tables whose links reach a changed table (dependsOn), not the others', async () => {
    const cache = make();
    let loads = 0;
    await cache.get('p1', 'People', async () => ({ baseId: 'p1', tableId: 'mpeople', dependsOn: ['mteams', 'mjunction'], n: ++loads }));
    await cache.get('p1', 'Other', async () => ({ baseId: 'p1', tableId: 'mother', n: ++loads }));
    cache.invalidate({ tableId: 'mjunction' });
    expect((await cache.get('p1', 'People', async () => ({ baseId: 'p1', tableId: 'mpeople', n: ++loads }))).n).toBe(3);
    expect((await cache.get('p1', 'Other', async () => ({ baseId: 'p1', tableId: 'mother', n: ++loads }))).n).toBe(2);
  });

  it('does not cache an answer loaded across an invalidation', async () => {
    const cache = make();
    let release!: () => void;
    const gate = new Promise<void>((r) => { release = r; });
    const first = cache.get('p1', 'T', async () => { await gate; return { baseId: 'p1', tableId: 'm1', n: 1 }; });
    cache.invalidate({ tableId: 'm1' });
    release();
    await first;
    expect((await cache.get('p1', 'T', async () => ({ baseId: 'p1', tableId: 'm1', n: 2 }))).n).toBe(2);
  });

  it('does not cache failures', async () => {
    const cache = make();
    await expect(cache.get('p1', 'T', async () => { throw new Error('boom'); })).rejects.toThrow('boom');
    expect((await cache.get('p1', 'T', async () => ({ baseId: 'p1', tableId: 'm1', n: 7 }))).n).toBe(7);
  });
});
