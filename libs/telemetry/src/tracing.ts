/* eslint-disable @typescript-eslint/no-require-imports -- heavy modules load only when used */
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { Instrumentation } from '@opentelemetry/instrumentation';

let provider: NodeTracerProvider | undefined;
let disable: (() => void) | undefined;

/** The instrumentations this process needs: Kafka's only with EVENT_BUS=kafka. */
function instrumentations(env: NodeJS.ProcessEnv): Instrumentation[] {
  const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { UndiciInstrumentation } = require('@opentelemetry/instrumentation-undici') as typeof import('@opentelemetry/instrumentation-undici');
  const { PgInstrumentation } = require('@opentelemetry/instrumentation-pg') as typeof import('@opentelemetry/instrumentation-pg');
  const { KoaInstrumentation } = require('@opentelemetry/instrumentation-koa') as typeof import('@opentelemetry/instrumentation-koa');
  const list: Instrumentation[] = [
    new HttpInstrumentation({ ignoreIncomingRequestHook: (req) => /^\/(healthz|readyz|metrics)/.test(req.url ?? '') }),
    new UndiciInstrumentation(),
    new PgInstrumentation(),
    new KoaInstrumentation(),
  ];
  if (env.EVENT_BUS === 'kafka') {
    const { KafkaJsInstrumentation } = require('@opentelemetry/instrumentation-kafkajs') as typeof import('@opentelemetry/instrumentation-kafkajs');
    list.push(new KafkaJsInstrumentation());
  }
  return list;
}

/**
 * Starts OpenTelemetry for this process. Call it from the process entry before
 * koa, pg or kafkajs are loaded (each service's `instrument.ts`). Spans are
 * exported over OTLP/HTTP only when OTEL_EXPORTER_OTLP_ENDPOINT is set (the
 * exporter is loaded only then); without it trace ids still exist (for log
 * correlation and W3C propagation) but nothing is sent.
 * OTEL_SDK_DISABLED=true switches it off entirely.
 */
export function startTelemetry(serviceName: string, env: NodeJS.ProcessEnv = process.env): void {
  if (provider || env.OTEL_SDK_DISABLED === 'true') return;
  const { NodeTracerProvider: Provider } = require('@opentelemetry/sdk-trace-node') as typeof import('@opentelemetry/sdk-trace-node');
  const { resourceFromAttributes } = require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  const { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } = require('@opentelemetry/semantic-conventions') as typeof import('@opentelemetry/semantic-conventions');
  const { registerInstrumentations } = require('@opentelemetry/instrumentation') as typeof import('@opentelemetry/instrumentation');
  const spanProcessors: SpanProcessor[] = [];
  if (env.OTEL_EXPORTER_OTLP_ENDPOINT) {
    const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
    const { BatchSpanProcessor } = require('@opentelemetry/sdk-trace-base') as typeof import('@opentelemetry/sdk-trace-base');
    spanProcessors.push(new BatchSpanProcessor(new OTLPTraceExporter()));
  }
  provider = new Provider({
    resource: resourceFromAttributes({
      [ATTR_SERVICE_NAME]: env.OTEL_SERVICE_NAME ?? `tabula-${serviceName}`,
      [ATTR_SERVICE_VERSION]: env.npm_package_version ?? '0.1.0',
    }),
    spanProcessors,
  });
  // Global tracer provider, AsyncLocalStorage context manager, W3C trace-context + baggage propagation.
  provider.register();
  disable = registerInstrumentations({ tracerProvider: provider, instrumentations: instrumentations(env) });
}

/** Flushes and stops tracing (on SIGTERM). */
export async function stopTelemetry(): Promise<void> {
  if (!provider) return;
  const current = provider;
  provider = undefined;
  disable?.();
  await current.shutdown().catch(() => undefined);
}
