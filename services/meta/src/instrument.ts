import { startTelemetry } from '@tabula/telemetry';

startTelemetry('meta');
