import { startTelemetry } from '@tabula/telemetry';

startTelemetry('integrations');
