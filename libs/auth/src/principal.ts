/** Who is calling: a user (by JWT or API token) or another service. */
export interface Principal {
  kind: 'user' | 'service';
  /** User id (`us...`) or the calling service's name. */
  id: string;
  email?: string;
  /** Organisation roles, e.g. ['org-level-creator', 'super']. */
  roles: string[];
  /** How the user authenticated. */
  via?: 'jwt' | 'api-token';
  /** Set when authenticated by an API token. */
  tokenId?: string;
  /** Set for a base-scoped API token: the only base it may touch. */
  baseScope?: string;
}

/** True for the super admin (acts as owner everywhere). */
export function isSuper(principal: Principal): boolean {
  return principal.roles.includes('super');
}

/** The principal a service uses for its own internal calls. */
export function servicePrincipal(service: string): Principal {
  return { kind: 'service', id: service, roles: [] };
}
