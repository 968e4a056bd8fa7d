import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { context, trace, TraceFlags } from '@opentelemetry/api';
import { createLogger, currentLogFields, keepLogFieldsInTraceContext, logFormatFrom, prettyLine, withLogFields, writeAccessLine, type LogDestination } from '@tabula/telemetry';
import { knexLog } from '@tabula/db';

/** A destination keeping what the logger wrote. */
function capture(isTTY = false): LogDestination & { lines: string[] } {
  const lines: string[] = [];
  return { lines, isTTY, write: (line: string) => { lines.push(line); } };
}

function connectionRefused(): Error {
  return Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED', errno: -111, syscall: 'connect' });
}

describe('logger', () => {
  it('writes exactly one `service` per line, its own: another service the line names is its `target`', () => {
    const out = capture();
    const logger = createLogger('gateway', 'info', 'json', out);
    logger.warn({ service: 'data', status: 503 }, 'proxy: upstream call failed');
    logger.info({ route: '/x' }, 'request');
    expect(out.lines).toHaveLength(2);
    for (const line of out.lines) expect(line.match(/"service":/g)).toHaveLength(1);
    expect(JSON.parse(out.lines[0])).toMatchObject({ service: 'gateway', target: 'data', status: 503, level: 'warn' });
    expect(JSON.parse(out.lines[1])).not.toHaveProperty('target');
  });

  it('writes nothing at LOG_LEVEL=silent', () => {
    const out = capture();
    const logger = createLogger('standalone', 'silent', 'json', out);
    logger.info('Tabula is running');
    logger.error({ err: new Error('boom') }, 'failed');
    expect(out.lines).toEqual([]);
  });

  it('writes a database driver error as one JSON line without its stack', () => {
    const out = capture();
    const logger = createLogger('data', 'info', 'json', out);
    logger.error({ err: connectionRefused() }, 'outbox relay failed');
    expect(out.lines).toHaveLength(1);
    const line = JSON.parse(out.lines[0]) as { err: Record<string, unknown> };
    expect(line.err).toMatchObject({ message: 'connect ECONNREFUSED 127.0.0.1:5432', code: 'ECONNREFUSED' });
    expect(line.err.stack ?? '').toBe('');
    expect(out.lines[0]).not.toContain('    at ');
  });

  it("routes knex's pool and driver messages through the JSON logger: first line only, no stack", () => {
    const out = capture();
    const log = knexLog(createLogger('meta', 'info', 'json', out));
    const err = new Error('Knex: Timeout acquiring a connection. The pool is probably full.\n    at Client_PG.acquireConnection (client.js:1:1)');
    log.error(err);
    log.warn('Connection Error: Error: Connection terminated unexpectedly');
    expect(out.lines).toHaveLength(2);
    for (const text of out.lines) {
      expect(text).not.toContain('    at ');
      expect(JSON.parse(text)).toMatchObject({ service: 'meta', source: 'knex', msg: 'database driver' });
    }
  });

  it('LOG_FORMAT=pretty writes readable lines: time, level, service, message, fields, an error and its stack', () => {
    const out = capture();
    const logger = createLogger('gateway', 'info', 'pretty', out);
    logger.info({ method: 'POST', route: '/api/v1/db/data/:orgs/:baseName/:tableName', status: 200, note: 'two words' }, 'request');
    const err = new TypeError('bad thing');
    logger.error({ err }, 'request failed');
    expect(out.lines[0]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO  gateway request method=POST route=\/api\/v1\/db\/data\/:orgs\/:baseName\/:tableName status=200 note="two words"\n$/);
    expect(out.lines[1]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} ERROR gateway request failed err="TypeError: bad thing"\n {4}at /);
    // No JSON left in a pretty line, and no colour codes when the output is not a terminal.
    expect(out.lines[0]).not.toContain('{');
    expect(out.lines.join('')).not.toContain('\u001b[');
  });

  it('colours the level and service on a terminal', () => {
    const line = prettyLine(JSON.stringify({ level: 'warn', time: '2026-01-01T10:00:00.000Z', service: 'data', msg: 'slow' }), true);
    expect(line).toBe('10:00:00.000 \u001b[33mWARN \u001b[39m \u001b[1mdata\u001b[39m slow\n');
  });

  it('LOG_FORMAT chooses the format; unset, a terminal gets pretty lines and anything else JSON', () => {
    expect(logFormatFrom({ LOG_FORMAT: 'pretty' }, false)).toBe('pretty');
    expect(logFormatFrom({ LOG_FORMAT: 'json' }, true)).toBe('json');
    expect(logFormatFrom({}, true)).toBe('pretty');
    expect(logFormatFrom({}, false)).toBe('json');
  });

  it('writes an access line with its fields and the request id, at the logger\'s level, while other lines stay redacted', () => {
    const out = capture();
    const logger = createLogger('gateway', 'info', 'json', out);
    const started = process.hrtime.bigint();
    withLogFields({ request_id: 'req-1' }, () => writeAccessLine(logger, { method: 'GET', path: '/api/v1/x', route: '/api/v1/x', status: 200, started }));
    logger.info({ password: 'p', nested: { token: 't' } }, 'other');
    writeAccessLine(logger, { method: 'GET', path: '/healthz', route: '/healthz', status: 200, started });
    logger.level = 'debug';
    writeAccessLine(logger, { method: 'GET', path: '/readyz', route: '/readyz', status: 503, started });
    logger.level = 'warn';
    writeAccessLine(logger, { method: 'POST', path: '/api/v1/y', route: '/api/v1/y', status: 201, started });
    expect(out.lines).toHaveLength(3);
    const [access, other, probe] = out.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(access).toMatchObject({ level: 'info', service: 'gateway', request_id: 'req-1', method: 'GET', route: '/api/v1/x', status: 200, msg: 'request' });
    expect(typeof access.duration_ms).toBe('number');
    expect(out.lines[0].match(/"service":/g)).toHaveLength(1);
    expect(other).toMatchObject({ password: '[redacted]', nested: { token: '[redacted]' } });
    expect(probe).toMatchObject({ level: 'debug', route: '/readyz', status: 503 });
  });

  it('writes the access line byte for byte as pino does (house loggers skip pino\'s per-line work): fields, trace ids, JSON escapes, pretty', () => {
    /** The access line a house logger wrote, and the same fields written through pino (a child without redaction), the time made equal. */
    const both = (logger: ReturnType<typeof createLogger>, out: { lines: string[] }, path: string, route: string, status: number) => {
      writeAccessLine(logger, { method: 'POST', path, route, status, started: process.hrtime.bigint() });
      const direct = out.lines[out.lines.length - 1];
      const duration_ms = Number(/duration_ms["=:]+([\d.]+)/.exec(direct)?.[1]);
      const line = { method: 'POST', route, status, duration_ms };
      const viaPino = logger.child({}, { redact: [] });
      if (path === '/healthz') viaPino.debug(line, 'request'); else viaPino.info(line, 'request');
      const pinoLine = out.lines[out.lines.length - 1];
      const time = /"time":"[^"]*"/;
      return [direct.replace(time, '"time":"T"'), pinoLine.replace(time, '"time":"T"')];
    };
    const out = capture();
    const logger = createLogger('gateway', 'debug', 'json', out);
    const cases: [string, string, number][] = [['/api/v1/x', '/api/v1/db/data/:orgs/:baseName/:tableName', 201], ['/healthz', '/healthz', 200], ['/x', 'odd "route" \\ \u2028 é \u0001', 404]];
    for (const [path, route, status] of cases) {
      const [direct, viaPino] = withLogFields({ request_id: 'req-"1"' }, () => both(logger, out, path, route, status));
      expect(direct).toBe(viaPino);
      expect(direct.endsWith('}\n')).toBe(true);
    }
    // A request field named like a line field: the mixin's place, the line's value (pino's merge).
    const [named, namedViaPino] = withLogFields({ route: 'from-fields', request_id: 'r', table: 't' }, () => both(logger, out, '/x', '/x', 200));
    expect(named).toBe(namedViaPino);
    const manager = new AsyncLocalStorageContextManager().enable();
    context.setGlobalContextManager(manager);
    keepLogFieldsInTraceContext(true);
    try {
      const span = trace.wrapSpanContext({ traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: TraceFlags.SAMPLED });
      const [direct, viaPino] = context.with(trace.setSpan(context.active(), span), () => withLogFields({ request_id: 'req-2' }, () => both(logger, out, '/api/v1/y', '/api/v1/y', 200)));
      expect(direct).toBe(viaPino);
      expect(JSON.parse(direct)).toMatchObject({ request_id: 'req-2', trace_id: '0af7651916cd43dd8448eb211c80319c', span_id: 'b7ad6b7169203331', service: 'gateway' });
    } finally {
      keepLogFieldsInTraceContext(false);
      context.disable();
    }
    const pretty = capture();
    const readable = createLogger('data', 'info', 'pretty', pretty);
    const [direct, viaPino] = both(readable, pretty, '/api/v1/z', '/api/v1/z', 200);
    expect(direct.replace(/^\S+/, '')).toBe(viaPino.replace(/^\S+/, ''));
    expect(pretty.lines[0]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO  data request method=POST route=\/api\/v1\/z status=200 duration_ms=/);
  });

  it('with tracing, keeps the request fields in the trace context (one AsyncLocalStorage): nested scopes, awaits, trace ids', async () => {
    const manager = new AsyncLocalStorageContextManager().enable();
    context.setGlobalContextManager(manager);
    keepLogFieldsInTraceContext(true);
    try {
      const out = capture();
      const logger = createLogger('data', 'info', 'json', out);
      const span = trace.wrapSpanContext({ traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: TraceFlags.SAMPLED });
      await context.with(trace.setSpan(context.active(), span), () => withLogFields({ request_id: 'req-7' }, async () => {
        await new Promise((r) => setImmediate(r));
        await withLogFields({ table: 't1' }, async () => {
          await Promise.resolve();
          logger.info('inner');
        });
        expect(currentLogFields()).toEqual({ request_id: 'req-7' });
        logger.info('outer');
      }));
      expect(currentLogFields()).toBeUndefined();
      logger.info('after');
      const [inner, outer, after] = out.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(inner).toMatchObject({ request_id: 'req-7', table: 't1', trace_id: '0af7651916cd43dd8448eb211c80319c', span_id: 'b7ad6b7169203331' });
      expect(outer).toMatchObject({ request_id: 'req-7', trace_id: '0af7651916cd43dd8448eb211c80319c' });
      expect(outer).not.toHaveProperty('table');
      expect(after).not.toHaveProperty('request_id');
    } finally {
      keepLogFieldsInTraceContext(false);
      context.disable();
    }
  });
});
