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
  /** The span's attributes with a string value. */
  attributes: Record<string, string>;
}

interface OtlpJson {
  resourceSpans?: Array<{
    resource?: { attributes?: Array<{ key: string; value: { stringValue?: string } }> };
    scopeSpans?: Array<{ spans?: Array<{ traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number; attributes?: Array<{ key: string; value: { stringValue?: string } }> }> }>;
  }>;
}

/** One protobuf field: its number and its value (a varint as a number, a length-delimited field as bytes). */
type Field = { no: number; value: number | Buffer };

/** Reads the fields of one protobuf message (wire types varint, 64-bit, length-delimited and 32-bit). */
function fields(buf: Buffer): Field[] {
  const out: Field[] = [];
  let pos = 0;
  const varint = (): number => {
    let result = 0;
    let shift = 0;
    for (;;) {
      const byte = buf[pos++];
      result += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return result;
      shift += 7;
    }
  };
  while (pos < buf.length) {
    const tag = varint();
    const no = Math.floor(tag / 8);
    const wire = tag & 7;
    if (wire === 0) out.push({ no, value: varint() });
    else if (wire === 1) { out.push({ no, value: buf.subarray(pos, pos + 8) }); pos += 8; }
    else if (wire === 2) { const len = varint(); out.push({ no, value: buf.subarray(pos, pos + len) }); pos += len; }
    else if (wire === 5) { out.push({ no, value: buf.subarray(pos, pos + 4) }); pos += 4; }
    else throw new Error(`protobuf wire type ${wire} not supported`);
  }
  return out;
}

const sub = (list: Field[], no: number): Buffer[] => list.filter((f) => f.no === no && Buffer.isBuffer(f.value)).map((f) => f.value as Buffer);
const str = (list: Field[], no: number): string | undefined => sub(list, no)[0]?.toString('utf8');

/** KeyValue { key = 1; AnyValue value = 2 { string_value = 1 } } with a string value, as JSON's shape. */
function keyValues(list: Buffer[]): Array<{ key: string; value: { stringValue?: string } }> {
  return list.map((kv) => {
    const f = fields(kv);
    const value = sub(f, 2)[0];
    return { key: str(f, 1) ?? '', value: { stringValue: value ? str(fields(value), 1) : undefined } };
  });
}

/**
 * An OTLP/HTTP protobuf ExportTraceServiceRequest decoded into the JSON
 * encoding's shape (ids as hex), from the field numbers of
 * opentelemetry/proto/trace/v1/trace.proto: ResourceSpans { resource = 1;
 * scope_spans = 2 }, Resource { attributes = 1 }, ScopeSpans { spans = 2 },
 * Span { trace_id = 1; span_id = 2; parent_span_id = 4; name = 5; kind = 6;
 * attributes = 9 }.
 */
export function decodeProtobufTraces(body: Buffer): OtlpJson {
  return {
    resourceSpans: sub(fields(body), 1).map((rs) => {
      const rsFields = fields(rs);
      const resource = sub(rsFields, 1)[0];
      return {
        resource: { attributes: resource ? keyValues(sub(fields(resource), 1)) : [] },
        scopeSpans: sub(rsFields, 2).map((ss) => ({
          spans: sub(fields(ss), 2).map((span) => {
            const f = fields(span);
            const parent = sub(f, 4)[0];
            return {
              traceId: sub(f, 1)[0]?.toString('hex') ?? '',
              spanId: sub(f, 2)[0]?.toString('hex') ?? '',
              parentSpanId: parent && parent.length > 0 ? parent.toString('hex') : undefined,
              name: str(f, 5) ?? '',
              kind: Number(f.find((x) => x.no === 6)?.value ?? 0),
              attributes: keyValues(sub(f, 9)),
            };
          }),
        })),
      };
    }),
  };
}

/** A minimal OpenTelemetry collector: accepts OTLP/HTTP (protobuf, the SDK's default, or JSON) on /v1/traces and keeps the spans. */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  /** Export requests received on /v1/traces. */
  requests = 0;
  private server?: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        let body = Buffer.concat(chunks);
        if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
        const type = String(req.headers['content-type']);
        if (req.url?.startsWith('/v1/traces')) {
          this.requests += 1;
          if (type.includes('json')) this.collect(JSON.parse(body.toString()) as OtlpJson);
          else if (type.includes('protobuf')) this.collect(decodeProtobufTraces(body));
        }
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
          this.spans.push({ service, traceId: s.traceId, spanId: s.spanId, parentSpanId: s.parentSpanId || undefined, name: s.name, kind: s.kind, attributes: Object.fromEntries((s.attributes ?? []).filter((a) => a.value.stringValue !== undefined).map((a) => [a.key, a.value.stringValue!])) });
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
