/**
 * The auth service's internal API (`/internal/...`):
 *
 * - `POST /internal/authenticate` body {@link AuthenticateRequest} → 200 `{ principal }` | 401
 * - `GET /internal/bases/:baseId/members/:userId` → 200 `{ role }` | 404 (no membership)
 * - `PUT /internal/bases/:baseId/members/:userId` body `{ role }` → 200 `{ role }`
 *   (meta makes the creator `owner` when it creates a base)
 * - `GET /internal/users/:userId` → {@link UserSummary} | 404
 */
export interface AuthenticateRequest {
  token: string;
  kind: 'jwt' | 'api-token';
}

export interface UserSummary {
  id: string;
  email: string;
  firstname?: string | null;
  lastname?: string | null;
}
