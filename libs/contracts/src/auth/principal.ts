import { z } from 'zod';

/** Who is calling: a user (by JWT or API token) or another service. The one definition of `Principal`. */
export const principalSchema = z.object({
  kind: z.enum(['user', 'service']),
  /** User id (`us...`) or the calling service's name. */
  id: z.string(),
  email: z.string().optional(),
  /** Organisation roles, e.g. ['org-level-creator', 'super']. */
  roles: z.array(z.string()),
  /** How the user authenticated. */
  via: z.enum(['jwt', 'api-token']).optional(),
  /** Set when authenticated by an API token. */
  tokenId: z.string().optional(),
  /** Set for a base-scoped API token: the only base it may touch. */
  baseScope: z.string().optional(),
});
