import { startTelemetry } from '@tabula/telemetry';

startTelemetry('storage');
