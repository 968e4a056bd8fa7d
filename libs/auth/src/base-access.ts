import { LRUCache } from 'lru-cache';
import { errors } from '@tabula/errors';
import { isSuper, type Principal } from './principal';
import { roleAllows, isBaseRole, type BaseAction, type BaseRole } from './roles';

/**
 * Asks the auth service for a user's role in a base: the role, undefined when
 * there is none; throws when auth cannot answer. Built by the runtime from
 * auth's typed client (`roleLookupOf` in @tabula/runtime), a fake in tests.
 */
export type RoleLookup = (baseId: string, userId: string) => Promise<string | undefined>;

/** {@link BaseAccess}'s "not known without asking auth". */
const UNKNOWN = Symbol('unknown role');

const roleKey = (principal: Principal, baseId: string) => `${baseId}:${principal.id}`;

/** The role when it allows `action`; `missing()` without a role, 403 naming both when too weak. */
function allowed(role: BaseRole | undefined, action: BaseAction, missing: () => Error): BaseRole {
  if (!role || role === 'no-access') throw missing();
  if (!roleAllows(role, action)) throw errors.forbidden(`Forbidden - role '${role}' may not perform '${action}'`);
  return role;
}

interface CachedRole {
  role: BaseRole | undefined;
  until: number;
}

/**
 * "May this principal do X in base B?" for every service. Base roles live in the
 * auth service; answers are cached per (base, user) and dropped on membership
 * events (`invalidate`). Denials are cached only briefly so a new member is let
 * in at once.
 */
export class BaseAccess {
  /** Bounded by lru-cache (least recently used first); each answer's TTL is checked on the wall clock. */
  private readonly cache = new LRUCache<string, CachedRole>({ max: 50_000 });

  constructor(
    private readonly lookup: RoleLookup,
    private readonly ttlMs = 30_000,
    private readonly negativeTtlMs = 1_000,
  ) {}

  /** The principal's role in the base, or undefined when it has none. */
  async roleOf(principal: Principal, baseId: string): Promise<BaseRole | undefined> {
    const known = this.knownRole(principal, baseId);
    if (known !== UNKNOWN) return known;
    const raw = await this.askRole(baseId, principal.id);
    const role = raw && isBaseRole(raw) ? raw : undefined;
    this.cache.set(roleKey(principal, baseId), { role, until: Date.now() + (role ? this.ttlMs : this.negativeTtlMs) });
    return role;
  }

  /** The role when it is known without asking auth (not a user, another base's token, super, a fresh cached answer). */
  private knownRole(principal: Principal, baseId: string): BaseRole | undefined | typeof UNKNOWN {
    if (principal.kind !== 'user') return undefined;
    if (principal.baseScope && principal.baseScope !== baseId) return undefined;
    if (isSuper(principal)) return 'owner';
    const hit = this.cache.get(roleKey(principal, baseId));
    return hit && hit.until > Date.now() ? hit.role : UNKNOWN;
  }

  /** Auth's answer; 503 when auth cannot answer. */
  private async askRole(baseId: string, userId: string): Promise<string | undefined> {
    try {
      return await this.lookup(baseId, userId);
    } catch {
      throw errors.unavailable('Authorization service unavailable');
    }
  }

  /**
   * Throws 403 unless the principal may perform `action` in the base: no role
   * → `Forbidden - Unauthorized access`; a weaker role → names action and role.
   */
  authorize(principal: Principal, baseId: string, action: BaseAction): Promise<BaseRole> {
    return this.withRole(principal, baseId, (role) => allowed(role, action, () => errors.forbidden()));
  }

  /**
   * Like {@link authorize}, but a caller with no role in the base (another
   * tenant, another base's token) gets `hidden()` — the answer of a missing
   * resource — so ids never reveal what exists. A member whose role lacks the
   * action still gets 403.
   */
  authorizeVisible(principal: Principal, baseId: string, action: BaseAction, hidden: () => Error): Promise<BaseRole> {
    return this.withRole(principal, baseId, (role) => allowed(role, action, hidden));
  }

  /**
   * `decide` on the principal's role: at once when the role is known (a
   * cached answer: one settled promise, no async frames on a request's
   * path), after asking auth otherwise.
   */
  private withRole(principal: Principal, baseId: string, decide: (role: BaseRole | undefined) => BaseRole): Promise<BaseRole> {
    const known = this.knownRole(principal, baseId);
    if (known === UNKNOWN) return this.roleOf(principal, baseId).then(decide);
    try {
      return Promise.resolve(decide(known));
    } catch (err) {
      return Promise.reject(err);
    }
  }

  /** Drops cached answers for a base (and one user, when given). */
  invalidate(baseId: string, userId?: string): void {
    if (userId) {
      this.cache.delete(`${baseId}:${userId}`);
      return;
    }
    for (const key of [...this.cache.keys()]) if (key.startsWith(`${baseId}:`)) this.cache.delete(key);
  }
}
