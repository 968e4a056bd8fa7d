import type { z } from 'zod';
import type { principalSchema } from '@tabula/contracts';

/** Who is calling: a user (by JWT or API token) or another service (defined once, in libs/contracts/src/auth/principal.ts). */
export type Principal = z.infer<typeof principalSchema>;

/** True for the super admin (acts as owner everywhere). */
export function isSuper(principal: Principal): boolean {
  return principal.roles.includes('super');
}

/** The principal a service uses for its own internal calls. */
export function servicePrincipal(service: string): Principal {
  return { kind: 'service', id: service, roles: [] };
}
