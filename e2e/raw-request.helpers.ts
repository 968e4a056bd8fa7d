import http from 'node:http';

/** A request as written: the path goes on the wire as is (a URL would resolve `%2e%2e`). */
export interface RawCall { method?: string; path: string; headers?: Record<string, string>; body?: string }

/** Sends `call` to the server at `url` on a connection of its own; resolves with the status, the headers and the body text. */
export function sendAsWritten(url: string, call: RawCall): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(url);
    const req = http.request({ hostname, port, path: call.path, method: call.method ?? 'GET', headers: call.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end(call.body);
  });
}
