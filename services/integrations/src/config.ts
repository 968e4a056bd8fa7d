import { z } from 'zod';

/** Settings of the integrations service (README: Environment). */
export const integrationsConfigSchema = z.object({});

export type IntegrationsConfig = z.infer<typeof integrationsConfigSchema>;
