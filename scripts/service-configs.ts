import type { z } from 'zod';
import { authConfigSchema } from '../services/auth/src/config';
import { metaConfigSchema } from '../services/meta/src/config';
import { dataConfigSchema } from '../services/data/src/config';
import { commentsConfigSchema } from '../services/comments/src/config';
import { storageConfigSchema } from '../services/storage/src/config';
import { integrationsConfigSchema } from '../services/integrations/src/config';
import { hooksConfigSchema } from '../services/hooks/src/config';
import { realtimeConfigSchema } from '../services/realtime/src/config';
import { gatewayConfigSchema } from '../services/gateway/src/config';

/**
 * The settings schema of every service, without loading the services: what the
 * cluster launcher checks before it starts any process.
 */
export const serviceConfigSchemas: Array<{ configSchema: z.ZodType<unknown> }> = [
  authConfigSchema, metaConfigSchema, dataConfigSchema, commentsConfigSchema, storageConfigSchema,
  integrationsConfigSchema, hooksConfigSchema, realtimeConfigSchema, gatewayConfigSchema,
].map((configSchema) => ({ configSchema }));
