import { z } from 'zod';

/** Settings of the hooks service (README: Environment). */
export const hooksConfigSchema = z.object({});

export type HooksConfig = z.infer<typeof hooksConfigSchema>;
