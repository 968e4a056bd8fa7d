import { startTelemetry } from '@tabula/telemetry';

startTelemetry('comments');
