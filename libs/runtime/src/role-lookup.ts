import { authInternal } from '@tabula/contracts';
import type { RoleLookup } from '@tabula/auth';
import { AppError, clientOf, type ServiceClient } from '@tabula/http';

/** BaseAccess's role lookup through auth's typed internal client: a refusal (404: no membership) is "no role". */
export function roleLookupOf(services: ServiceClient): RoleLookup {
  const auth = clientOf(services, authInternal);
  return async (baseId, userId) => {
    try {
      return (await auth.roleOf({ params: { baseId, userId } })).role;
    } catch (err) {
      if (err instanceof AppError && err.status < 500) return undefined;
      throw err;
    }
  };
}
