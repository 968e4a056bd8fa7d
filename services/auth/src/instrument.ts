import { startTelemetry } from '@tabula/telemetry';

startTelemetry('auth');
