import type { ApiTokenRow } from '../repositories/api-token.repository';

/** A listed API token: never the value (only its hash is stored). */
export function presentApiToken(row: ApiTokenRow) {
  return {
    id: row.id,
    description: row.description,
    fk_user_id: row.user_id,
    ...(row.base_id ? { base_id: row.base_id } : {}),
    created_at: row.created_at.toISOString(),
  };
}

/** The create response: the only time the full token is shown. */
export function presentCreatedApiToken(row: ApiTokenRow, token: string) {
  return { ...presentApiToken(row), token };
}
