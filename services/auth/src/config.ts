import { z } from 'zod';

/** Settings of the auth service (README: Environment). */
export const authConfigSchema = z.object({});

export type AuthConfig = z.infer<typeof authConfigSchema>;
