import { NodeSDK } from '@opentelemetry/sdk-node';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { KoaInstrumentation } from '@opentelemetry/instrumentation-koa';
import { KafkaJsInstrumentation } from '@opentelemetry/instrumentation-kafkajs';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';

let sdk: NodeSDK | undefined;

/**
 * Starts OpenTelemetry for this process. Call it from the process entry before
 * koa, pg or kafkajs are loaded (each service's `instrument.ts`). Spans are
 * exported over OTLP/HTTP only when OTEL_EXPORTER_OTLP_ENDPOINT is set; without
 * it trace ids still exist (for log correlation and propagation) but nothing is sent.
 * OTEL_SDK_DISABLED=true switches it off entirely.
 */
export function startTelemetry(serviceName: string, env: NodeJS.ProcessEnv = process.env): void {
  if (sdk || env.OTEL_SDK_DISABLED === 'true') return;
  const spanProcessors: SpanProcessor[] = [];
  if (env.OTEL_EXPORTER_OTLP_ENDPOINT) spanProcessors.push(new BatchSpanProcessor(new OTLPTraceExporter()));
  sdk = new NodeSDK({
    resource: resourceFromAttributes({
      [ATTR_SERVICE_NAME]: env.OTEL_SERVICE_NAME ?? `tabula-${serviceName}`,
      [ATTR_SERVICE_VERSION]: env.npm_package_version ?? '0.1.0',
    }),
    spanProcessors,
    instrumentations: [
      new HttpInstrumentation({ ignoreIncomingRequestHook: (req) => /^\/(healthz|readyz|metrics)/.test(req.url ?? '') }),
      new UndiciInstrumentation(),
      new PgInstrumentation(),
      new KoaInstrumentation(),
      new KafkaJsInstrumentation(),
    ],
  });
  sdk.start();
}

/** Flushes and stops the SDK (on SIGTERM). */
export async function stopTelemetry(): Promise<void> {
  if (!sdk) return;
  const current = sdk;
  sdk = undefined;
  await current.shutdown().catch(() => undefined);
}
