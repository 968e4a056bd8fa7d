import type { Middleware } from 'koa';
import { AppError, v3Missing } from './app-error';

/** What a v1 missing-resource answer becomes on NocoDB's v3 paths: same code (a column is a field), 422. */
const V3_MISSING: Record<string, { code: Parameters<typeof v3Missing>[0]; what?: [string, string] }> = {
  ERR_BASE_NOT_FOUND: { code: 'ERR_BASE_NOT_FOUND' },
  ERR_TABLE_NOT_FOUND: { code: 'ERR_TABLE_NOT_FOUND' },
  ERR_COLUMN_NOT_FOUND: { code: 'ERR_FIELD_NOT_FOUND', what: ['Column', 'Field'] },
  ERR_FIELD_NOT_FOUND: { code: 'ERR_FIELD_NOT_FOUND' },
  ERR_VIEW_NOT_FOUND: { code: 'ERR_VIEW_NOT_FOUND' },
};

/**
 * NocoDB 0.301.3's v3 paths answer a base, table or field that does not exist
 * (or that the caller may not see) with 422 and the v1 code (`Field '…' not
 * found` for a column), where v1 and v2 answer 404; a missing record stays
 * 404. Put before a v3 route's guard (`route(router, endpoint, nocoV3Missing, handler)`):
 * the guard's hidden answers and the use cases' missing ones change alike,
 * so a hidden resource still answers exactly as a missing one.
 */
export const nocoV3Missing: Middleware = async (_ctx, next) => {
  try {
    await next();
  } catch (err) {
    const mapped = err instanceof AppError && err.status === 404 ? V3_MISSING[err.code] : undefined;
    if (!mapped || !(err instanceof AppError)) throw err;
    const message = mapped.what && err.message.startsWith(mapped.what[0]) ? `${mapped.what[1]}${err.message.slice(mapped.what[0].length)}` : err.message;
    throw v3Missing(mapped.code, message, err.details, err.headers);
  }
};
