/**
 * The floor of the records benchmark (issue 16): a bare `node:http` server —
 * no framework, no auth, no metadata, no validation — running the same SQL as
 * the data service through one `pg` pool and answering JSON. It is what any
 * Node HTTP API can do at best on this machine; the bench reports every
 * scenario as a ratio to it. Runs as its own process (see startFloor).
 * Usage: tsx scripts/bench/records-floor.ts '<json FloorTable>' (DATABASE URL in FLOOR_DB_URL, pool size in FLOOR_POOL)
 * Prints one JSON line `{ url }` when listening. Routes:
 *   GET  /list                 list-25
 *   GET  /where?min=N          where score > N, sort -score, first 25
 *   GET  /read/:id             one row by id
 *   POST /insert               one row (JSON body) INSERT … RETURNING
 *   POST /bulk                 JSON array INSERT … SELECT json_populate_recordset … RETURNING
 *   GET  /million?min=N        (on the `million` table) first page plus a bounded exact count
 * and the minimal floor (issue 34: the least SQL each request needs, no count):
 *   GET  /min/list             select * … order by id limit 25
 *   GET  /min/read/:id         select * … where id = $1
 *   POST /min/insert           insert … returning *
 * With BENCH_PROFILE=true also `/__bench/profile` (profile-endpoint.ts).
 */
import http from 'node:http';
import { Pool } from 'pg';
import { floorSql, type FloorTable } from './records-floor-sql';
import { profileEndpoint } from './profile-endpoint';

const tables = JSON.parse(process.argv[2] ?? '{}') as { main: FloorTable; million?: FloorTable; countLimit?: number };
const pool = new Pool({ connectionString: process.env.FLOOR_DB_URL, max: Number(process.env.FLOOR_POOL ?? 10) });
const sql = floorSql(tables.main);
const millionSql = tables.million ? floorSql(tables.million) : undefined;

function send(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function bodyOf(req: http.IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => { try { resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))); } catch (err) { reject(err); } });
    req.on('error', reject);
  });
}

async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://floor');
  const min = Number(url.searchParams.get('min') ?? 50_000);
  const parts = url.pathname.split('/');
  if (parts[1] === 'min') {
    if (req.method === 'GET' && parts[2] === 'list') return send(res, 200, { list: (await pool.query(sql.minimal.list)).rows });
    if (req.method === 'GET' && parts[2] === 'read') return send(res, 200, (await pool.query(sql.minimal.read, [Number(parts[3])])).rows[0]);
    if (req.method === 'POST' && parts[2] === 'insert') {
      const row = (await bodyOf(req)) as Record<string, unknown>;
      return send(res, 200, (await pool.query(sql.minimal.insert, sql.insertValues(row))).rows[0]);
    }
  }
  if (req.method === 'GET' && url.pathname === '/list') return send(res, 200, { list: (await pool.query(sql.list)).rows });
  if (req.method === 'GET' && url.pathname === '/where') return send(res, 200, { list: (await pool.query(sql.whereSort, [min])).rows });
  if (req.method === 'GET' && parts[1] === 'read') return send(res, 200, (await pool.query(sql.read, [Number(parts[2])])).rows[0]);
  if (req.method === 'POST' && url.pathname === '/insert') {
    const row = (await bodyOf(req)) as Record<string, unknown>;
    return send(res, 200, (await pool.query(sql.insertOne, sql.insertValues(row))).rows[0]);
  }
  if (req.method === 'POST' && url.pathname === '/bulk') {
    const rows = (await bodyOf(req)) as Record<string, unknown>[];
    return send(res, 200, (await pool.query(sql.bulk, sql.bulkValues(rows))).rows);
  }
  if (req.method === 'GET' && url.pathname === '/million' && millionSql) {
    const [page, count] = await Promise.all([pool.query(millionSql.whereSort, [min]), pool.query(millionSql.boundedCount, [min, tables.countLimit ?? 100_000])]);
    return send(res, 200, { list: page.rows, pageInfo: { totalRows: Number(count.rows[0].n) } });
  }
  send(res, 404, { error: 'not found' });
}

const server = http.createServer((req, res) => {
  if (process.env.BENCH_PROFILE === 'true' && req.url?.startsWith('/__bench/profile')) { void profileEndpoint(req, res); return; }
  handle(req, res).catch((err: unknown) => send(res, 500, { error: String(err) }));
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}` })}\n`);
});
process.on('SIGTERM', () => { server.close(); void pool.end().then(() => process.exit(0)); });
