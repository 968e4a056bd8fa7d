import { context, propagation, ROOT_CONTEXT, SpanKind, trace, TraceFlags } from '@opentelemetry/api';
import { captureTraceContext, runInChildSpan, runInStoredContext, startTelemetry, stopTelemetry } from '@tabula/telemetry';

/**
 * Without an exporter (tracing on, nothing sent), a consumer's or a deferred
 * work's span is only its ids (runInChildSpan): what the work's log lines and
 * outgoing calls read must be the trace it continues, with a span id of its own.
 */
describe('runInChildSpan without an exporter', () => {
  const tracer = trace.getTracer('test');
  const parentIds = { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331' };

  beforeAll(() => startTelemetry('child-span-test', { OTEL_SDK_DISABLED: 'false' }));
  afterAll(() => stopTelemetry());

  it('continues the parent\'s trace (id, flags) with a new span id, active across awaits', async () => {
    for (const flags of [TraceFlags.SAMPLED, TraceFlags.NONE]) {
      const parent = trace.setSpanContext(ROOT_CONTEXT, { ...parentIds, traceFlags: flags, isRemote: true });
      const seen = await runInChildSpan(tracer, 'process records', { kind: SpanKind.CONSUMER }, parent, async () => {
        await new Promise((r) => setImmediate(r));
        return trace.getSpanContext(context.active());
      });
      expect(seen?.traceId).toBe(parentIds.traceId);
      expect(seen?.spanId).toMatch(/^[0-9a-f]{16}$/);
      expect(seen?.spanId).not.toBe(parentIds.spanId);
      expect(seen?.traceFlags).toBe(flags);
    }
  });

  it('starts a new sampled trace without a parent, and a stored context is continued as a traceparent', async () => {
    const root = await runInChildSpan(tracer, 'x', {}, ROOT_CONTEXT, async () => trace.getSpanContext(context.active()));
    expect(root?.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(root?.traceId).not.toBe('00000000000000000000000000000000');
    expect(root?.traceFlags).toBe(TraceFlags.SAMPLED);
    const stored = { traceparent: `00-${parentIds.traceId}-${parentIds.spanId}-01` };
    const captured = await runInStoredContext(stored, 'deliver webhook', {}, async () => captureTraceContext());
    expect(captured?.traceparent).toMatch(new RegExp(`^00-${parentIds.traceId}-[0-9a-f]{16}-01$`));
    expect(captured?.traceparent).not.toContain(parentIds.spanId);
    const carrier: Record<string, string> = {};
    propagation.inject(context.active(), carrier);
    expect(carrier.traceparent).toBeUndefined();
  });

  it('rejects with the work\'s error, thrown before or after its first await', async () => {
    await expect(runInChildSpan(tracer, 'x', {}, ROOT_CONTEXT, () => { throw new Error('sync'); })).rejects.toThrow('sync');
    await expect(runInChildSpan(tracer, 'x', {}, ROOT_CONTEXT, async () => { await Promise.resolve(); throw new Error('async'); })).rejects.toThrow('async');
  });
});
