import { z } from 'zod';
import { defineEndpoint } from '../endpoint/define-endpoint';
import { SERVICES } from '../endpoint/access';

/**
 * GET /internal/bases/{baseRef}/candidates (meta, services only): which live
 * bases a `{baseName}` in a path could mean — the base with that id, and the
 * ids of bases with that title. The caller-specific choice among them is made
 * by libs/auth `resolveBaseRef` (only bases the caller may access count).
 */
export const baseCandidates = defineEndpoint({
  id: 'metaBaseCandidates', method: 'GET', path: '/internal/bases/{baseRef}/candidates', service: 'meta', auth: { callers: SERVICES },
  summary: 'Bases a base reference could name (by id, by title)', tags: ['Internal'],
  params: z.object({ baseRef: z.string().min(1).max(255) }),
  response: z.object({ byId: z.string().optional(), byTitle: z.array(z.string()) }),
});
