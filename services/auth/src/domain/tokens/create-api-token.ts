import type { Principal } from '@tabula/auth';
import type { AuthPorts } from '../../ports';
import { type ApiTokenRow, insertApiToken } from '../../repositories/api-token.repository';
import { hashToken, newApiToken, newId } from '../../security/secret-token';

/** Creates a token (org-scoped when baseId is null); the value is returned once, only its hash is kept. */
export async function createApiToken(ports: AuthPorts, owner: Principal, input: { description?: string; baseId: string | null }): Promise<{ row: ApiTokenRow; token: string }> {
  const token = newApiToken();
  const row = await insertApiToken(ports.db, {
    id: newId('tkn'), hash: hashToken(token), description: input.description ?? null, user_id: owner.id, base_id: input.baseId,
  });
  return { row, token };
}
