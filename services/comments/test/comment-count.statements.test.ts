import request from 'supertest';
import { startCommentsHarness, type CommentsHarness } from './comments-app.harness';

/**
 * `count` for 1000 ids on a table with 100,000 comments is ONE SQL statement
 * (counted with knex's query event on the service's own pool), answers every
 * id (0 included) and leaves deleted comments out.
 */
let h: CommentsHarness;
const table = { id: 'mcounttable00001', baseId: 'pcountbase000001', sourceId: 'bcountsource0001' };
const user = { id: 'usviewer00000001', email: 'viewer@example.com' };

beforeAll(async () => {
  h = await startCommentsHarness();
  h.world.tables.set(table.id, table);
  h.world.roles.set(`${table.baseId}:${user.id}`, 'viewer');
  // 100,000 comments on rows 1..10000 (10 each; the last of every row soft-deleted), plus noise in another table
  await h.shared.db.raw(`
    INSERT INTO comments.comments (id, base_id, source_id, fk_model_id, row_id, comment, created_by, created_by_email, is_deleted)
    SELECT 'com' || lpad(to_hex(g), 14, '0'), ?, ?, ?, ((g % 10000) + 1)::text, 'seeded ' || g, 'usseed', 'seed@example.com', g > 90000
      FROM generate_series(1, 100000) AS g`, [table.baseId, table.sourceId, table.id]);
  await h.shared.db.raw(`
    INSERT INTO comments.comments (id, base_id, source_id, fk_model_id, row_id, comment, created_by)
    SELECT 'comx' || lpad(to_hex(g), 13, '0'), 'pother', 'bother', 'mother', g::text, 'noise', 'usseed' FROM generate_series(1, 5000) AS g`);
  await h.shared.db.raw('ANALYZE comments.comments');
}, 120_000);
afterAll(async () => { await h?.stop(); });

describe('comment count', () => {
  it('answers 1000 ids with one SQL statement, zeros included', async () => {
    // ids 9501..10500: 500 rows with 9 live comments each, 500 with none
    const ids = Array.from({ length: 1000 }, (_, i) => String(9501 + i));
    const query = ids.map((id) => `ids[]=${id}`).join('&');
    const path = `/api/v1/db/meta/comments/count?fk_model_id=${table.id}&${query}`;
    await request(h.app.callback()).get(path).set(h.as(user)).expect(200); // warms the table and role caches (no SQL either way)
    const statements: string[] = [];
    const listener = (q: { sql: string }) => statements.push(q.sql);
    h.shared.db.on('query', listener);
    const res = await request(h.app.callback()).get(path).set(h.as(user));
    h.shared.db.off('query', listener);
    expect(res.status).toBe(200);
    expect(statements).toHaveLength(1);
    console.log(`statements for count of 1000 ids: ${statements.length}\n${statements[0]}`);
    expect(Object.keys(res.body)).toHaveLength(1000);
    expect(res.body['9501']).toBe(9);
    expect(res.body['10000']).toBe(9);
    expect(res.body['10001']).toBe(0);
    expect(res.body['10500']).toBe(0);
    expect(Object.values(res.body).reduce((a: number, b) => a + (b as number), 0)).toBe(500 * 9);
  });
});
