import { QueryError } from '../query-error';

/** 400 ERR_INVALID_FORMULA naming the position (1-based) and the problem. */
export function formulaError(message: string, pos?: number): QueryError {
  const where = pos === undefined ? '' : ` at position ${pos + 1}`;
  return new QueryError({
    code: 'ERR_INVALID_FORMULA', message: `Invalid formula${where}: ${message}`,
    details: pos === undefined ? { problem: message } : { position: pos + 1, problem: message },
  });
}
