import type { Principal } from '@tabula/auth';
import type { AuthPorts } from '../../ports';
import { type ApiTokenRow, insertApiToken } from '../../repositories/api-token.repository';
import { hashToken, newApiToken, newId } from '../../security/secret-token';
import type { BaseInScope } from '../auth-access';

/** A new token and its value, returned once: only its hash is kept. */
export interface CreatedToken {
  row: ApiTokenRow;
  token: string;
}

async function createApiToken(ports: AuthPorts, owner: Principal, input: { description?: string; baseId: string | null }): Promise<CreatedToken> {
  const token = newApiToken();
  const row = await insertApiToken(ports.db, {
    id: newId('tkn'), hash: hashToken(token), description: input.description ?? null, user_id: owner.id, base_id: input.baseId,
  });
  return { row, token };
}

/** An org-wide token of the caller. */
export function createOrgToken(ports: AuthPorts, caller: Principal, input: { description?: string }): Promise<CreatedToken> {
  return createApiToken(ports, caller, { ...input, baseId: null });
}

/** A token of a base whose tokens the caller may manage (checked by the guard), made by the caller. */
export function createBaseToken(ports: AuthPorts, base: BaseInScope, input: { description?: string }): Promise<CreatedToken> {
  return createApiToken(ports, base.principal, { ...input, baseId: base.value.id });
}
