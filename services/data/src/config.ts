import { z } from 'zod';

/** Settings of the data service (README: Environment). */
export const dataConfigSchema = z.object({});

export type DataConfig = z.infer<typeof dataConfigSchema>;
