import { z } from 'zod';

const boolish = z.union([z.boolean(), z.number(), z.string()]).transform((v) => v === true || v === 1 || v === '1' || v === 'true');

/** A select option as the client sends it. */
export const selectOptionSchema = z.object({
  id: z.string().optional(),
  title: z.string({ error: 'select option title is required' }).trim().min(1, 'select option title is required'),
  color: z.string().regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/, 'select option color must be a hex color').optional(),
  order: z.number().optional(),
}).passthrough();

const jsonObject = z.union([z.record(z.string(), z.unknown()), z.string()]).nullable().transform((v, ctx) => {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v) as Record<string, unknown>;
  } catch {
    ctx.addIssue({ code: 'custom', message: 'meta must be an object or JSON text' });
    return z.NEVER;
  }
});

/** Column fields a client may send (spec "Column"); the rest passes through unused. */
export const columnFieldsSchema = z.object({
  /** Display title, 1–255 characters. */
  title: z.string().trim().min(1, 'title is required').max(255, 'title must be at most 255 characters'),
  column_name: z.string().max(255).optional(),
  uidt: z.string().min(1, 'uidt is required'),
  dt: z.string().max(64).nullish(),
  dtxp: z.union([z.string(), z.number()]).nullish(),
  dtxs: z.union([z.string(), z.number()]).nullish(),
  rqd: boolish.optional(), pk: boolish.optional(), pv: boolish.optional(), unique: boolish.optional(),
  ai: boolish.optional(), au: boolish.optional(),
  cdf: z.union([z.string(), z.number(), z.boolean()]).nullish(),
  meta: jsonObject.optional(),
  /** At most 8192 characters (spec Limits). */
  description: z.string().max(8192, 'description must be at most 8192 characters').nullish(),
  colOptions: z.object({ options: z.array(selectOptionSchema).optional() }).passthrough().nullish(),
}).passthrough();

/** Column create body. */
export type ColumnFields = z.infer<typeof columnFieldsSchema>;

/** Column update body: every field optional. */
export const columnPatchSchema = columnFieldsSchema.partial();
export type ColumnPatch = z.infer<typeof columnPatchSchema>;
