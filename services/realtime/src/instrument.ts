import { startTelemetry } from '@tabula/telemetry';

startTelemetry('realtime');
