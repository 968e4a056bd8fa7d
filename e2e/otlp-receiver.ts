import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/** A span as received over OTLP/HTTP JSON, flattened with its service name. */
export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
}

interface OtlpJson {
  resourceSpans?: Array<{
    resource?: { attributes?: Array<{ key: string; value: { stringValue?: string } }> };
    scopeSpans?: Array<{ spans?: Array<{ traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number }> }>;
  }>;
}

/** A minimal OpenTelemetry collector: accepts OTLP/HTTP JSON on /v1/traces and keeps the spans. */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  private server?: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        let body = Buffer.concat(chunks);
        if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
        if (req.url?.startsWith('/v1/traces') && String(req.headers['content-type']).includes('json')) this.collect(JSON.parse(body.toString()) as OtlpJson);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  private collect(doc: OtlpJson): void {
    for (const rs of doc.resourceSpans ?? []) {
      const service = rs.resource?.attributes?.find((a) => a.key === 'service.name')?.value.stringValue ?? '?';
      for (const ss of rs.scopeSpans ?? []) {
        for (const s of ss.spans ?? []) {
          this.spans.push({ service, traceId: s.traceId, spanId: s.spanId, parentSpanId: s.parentSpanId || undefined, name: s.name, kind: s.kind });
        }
      }
    }
  }

  /** Spans of one trace. */
  trace(traceId: string): ReceivedSpan[] {
    return this.spans.filter((s) => s.traceId === traceId);
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/**
 * Renders a trace as an indented tree (service | span name | parent id). Spans
 * the `show` predicate hides are skipped; their children hang from the nearest
 * shown ancestor.
 */
export function spanTree(spans: ReceivedSpan[], show: (s: ReceivedSpan) => boolean = () => true): string {
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  const shownParent = (s: ReceivedSpan): string | undefined => {
    for (let p = s.parentSpanId ? byId.get(s.parentSpanId) : undefined; p; p = p.parentSpanId ? byId.get(p.parentSpanId) : undefined) {
      if (show(p)) return p.spanId;
    }
    return undefined;
  };
  const children = new Map<string | undefined, ReceivedSpan[]>();
  for (const s of spans.filter(show)) {
    const parent = shownParent(s);
    children.set(parent, [...(children.get(parent) ?? []), s]);
  }
  const lines: string[] = [];
  const walk = (parent: string | undefined, depth: number) => {
    for (const s of children.get(parent) ?? []) {
      lines.push(`${'  '.repeat(depth)}${s.service} | ${s.name} | parent ${s.parentSpanId ?? '-'}`);
      walk(s.spanId, depth + 1);
    }
  };
  walk(undefined, 0);
  return lines.join('\n');
}
