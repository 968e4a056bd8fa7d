import { z } from 'zod';

/** The error body of every 4xx/5xx (compat-notes "Error bodies"). */
export const errorBodySchema = z.object({
  error: z.string().describe('Error code, e.g. ERR_INVALID_REQUEST_BODY'),
  message: z.string().describe('Human-readable message'),
  msg: z.string().describe('Same as message (NocoDB v1 clients read msg)'),
  details: z.unknown().optional(),
}).meta({ example: { error: 'ERR_INVALID_REQUEST_BODY', message: 'comment: Too small', msg: 'comment: Too small' } });

export type ErrorBodyShape = z.infer<typeof errorBodySchema>;
