import { z } from 'zod';

/** Settings of the storage service (README: Environment). */
export const storageConfigSchema = z.object({});

export type StorageConfig = z.infer<typeof storageConfigSchema>;
