import { startTelemetry } from '@tabula/telemetry';

startTelemetry('hooks');
