/**
 * The SQL statements one paced single insert costs end to end in standalone
 * (the write, the bus consumers: feed log, hooks, …) with one change-feed
 * subscriber: `count` inserts 50 ms apart, then every statement that went
 * through the services' knex meanwhile, grouped by its first words, per
 * insert. The outbox relay's claim and mark go on a raw pooled connection and
 * are not among them. Needs DATABASE_URL.
 * Usage: npx tsx scripts/bench/feed-statements.ts [--inserts 40]
 */
import { TestApi, col } from '@tabula/testing';
import { startStandaloneChild } from './standalone-child';
import { dropDatabase, freshDatabase } from './records-fixture';

const arg = (name: string, fallback: number) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? Number(process.argv[i + 1]) : fallback; };
const INSERTS = arg('inserts', 40);

async function main(): Promise<void> {
  const databaseUrl = await freshDatabase('feedsql');
  const server = await startStandaloneChild({ DATABASE_URL: databaseUrl, EVENT_BUS: 'memory', BENCH_COUNT_STATEMENTS: 'true' }, 'data');
  try {
    const api = new TestApi(server.url);
    const user = await api.signUp('feedsql');
    const table = await api.baseWithTable(user, { title: 'Feed', columns: [col.id(), col.text('Title')] });
    const controller = new AbortController();
    const stream = await fetch(`${server.url}/api/v1/events/tables/${table.id}`, { headers: { 'xc-auth': user.token }, signal: controller.signal });
    const reader = stream.body!.getReader();
    let received = 0;
    // Counted by whole lines: an event's line may be split across two chunks.
    const decoder = new TextDecoder();
    let partial = '';
    void (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        const lines = (partial + decoder.decode(value, { stream: true })).split('\n');
        partial = lines.pop() ?? '';
        received += lines.filter((line) => line.startsWith('event: records')).length;
      }
    })().catch(() => undefined);
    const insert = (title: string) => api.ok('POST', `/api/v1/db/data/noco/${table.baseId}/${table.id}`, { token: user.token, body: { Title: title } }, 'insert');
    for (let i = 0; i < 5; i += 1) await insert(`warm${i}`);
    await new Promise((r) => setTimeout(r, 1500));
    await fetch(`${server.directUrl}/__bench/statements?start`);
    const before = received;
    for (let i = 0; i < INSERTS; i += 1) { await insert(`t${i}`); await new Promise((r) => setTimeout(r, 50)); }
    await new Promise((r) => setTimeout(r, 1000));
    const { statements } = await (await fetch(`${server.directUrl}/__bench/statements`)).json() as { statements: { sql: string }[] };
    const groups = new Map<string, number>();
    for (const s of statements) {
      const key = s.sql.replace(/\s+/g, ' ').slice(0, 110);
      groups.set(key, (groups.get(key) ?? 0) + 1);
    }
    console.log(`${INSERTS} paced inserts, ${received - before} events streamed: ${statements.length} statements, ${(statements.length / INSERTS).toFixed(2)} per insert`);
    for (const [sql, n] of [...groups].sort((a, b) => b[1] - a[1])) console.log(`${(n / INSERTS).toFixed(2).padStart(6)}  ${sql}`);
    controller.abort();
  } finally {
    await server.stop();
    await dropDatabase(databaseUrl);
  }
}

main().catch((err) => { console.error(err); process.exit(1); });
