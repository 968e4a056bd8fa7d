import { startTelemetry } from '@tabula/telemetry';

startTelemetry('data');
