import { startTelemetry } from '@tabula/telemetry';

startTelemetry('gateway');
