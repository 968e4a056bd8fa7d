import { z } from 'zod';

/** Settings of the meta service (README: Environment). */
export const metaConfigSchema = z.object({});

export type MetaConfig = z.infer<typeof metaConfigSchema>;
