/**
 * The webhook sink of `bench:hooks`, in a process of its own: a load generator
 * that also answers the hooks' calls stamps their arrival late whenever it is
 * busy writing (its event loop runs both), so the sink's clock must not wait on
 * the writer. Answers every POST at once with 200 and records, per path, the
 * time each row (by its `Name`) arrived. `GET /_arrivals?path=/x` answers
 * `{ "count", "arrivals": { name: epochMs } }` for that path (`&only=count`: the count alone).
 * Prints one line `{"url": …}` once listening.
 */
import { createServer } from 'node:http';

const byPath = new Map();

const server = createServer((req, res) => {
  const [path, query = ''] = (req.url ?? '').split('?');
  if (req.method === 'GET' && path === '/_arrivals') {
    const params = new URLSearchParams(query);
    const entry = byPath.get(params.get('path') ?? '') ?? { count: 0, arrivals: {} };
    const answer = params.get('only') === 'count' ? { count: entry.count } : entry;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    return;
  }
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const at = Date.now();
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    let entry = byPath.get(path);
    if (!entry) byPath.set(path, (entry = { count: 0, arrivals: {} }));
    entry.count += 1;
    try {
      for (const row of JSON.parse(Buffer.concat(chunks).toString()).data?.rows ?? []) entry.arrivals[row.Name] = at;
    } catch { /* not a hook payload: counted only */ }
  });
});

server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${server.address().port}` })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
