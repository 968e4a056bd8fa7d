/** Error codes this library raises, each tied to one HTTP status. */
export const QUERY_ERROR_STATUS = {
  /** Unknown column or operator, bad syntax or a bad value in `where` / `filterArrJson`. */
  ERR_INVALID_FILTER: 422,
  /** Unknown column in `fields`, `sort` or `sortArrJson`. */
  ERR_FIELD_NOT_FOUND: 404,
  /** A sort the column cannot take (count sort on a non-link column, unknown direction). */
  ERR_INVALID_SORT: 422,
  /** Malformed JSON (or not an array) in `filterArrJson` / `sortArrJson`. */
  ERR_INVALID_REQUEST: 400,
  /** A formula that does not parse or type-check (position and problem named). */
  ERR_INVALID_FORMULA: 400,
} as const;

/** One of the codes above. */
export type QueryErrorCode = keyof typeof QUERY_ERROR_STATUS;

/** Constructor input of {@link QueryError}; the status follows from the code unless given. */
export interface QueryErrorInit {
  code: QueryErrorCode;
  message: string;
  status?: number;
  details?: Record<string, unknown>;
}

/**
 * The only error this library throws on bad client input. The HTTP error
 * middleware recognises it by class and answers `status` with `{ error: code, message }`.
 */
export class QueryError extends Error {
  readonly status: number;
  readonly code: QueryErrorCode;
  readonly details?: Record<string, unknown>;

  constructor(init: QueryErrorInit) {
    super(init.message);
    this.name = 'QueryError';
    this.code = init.code;
    this.status = init.status ?? QUERY_ERROR_STATUS[init.code];
    if (init.details) this.details = init.details;
  }

  /** 422 ERR_INVALID_FILTER. */
  static invalidFilter(message: string, details?: Record<string, unknown>): QueryError {
    return new QueryError({ code: 'ERR_INVALID_FILTER', message, details });
  }

  /** 404 ERR_FIELD_NOT_FOUND naming every unknown field. */
  static fieldNotFound(names: string[]): QueryError {
    const quoted = names.map((n) => `'${n}'`).join(', ');
    const message = `${names.length > 1 ? 'Fields' : 'Field'} ${quoted} not found`;
    return new QueryError({ code: 'ERR_FIELD_NOT_FOUND', message, details: { fields: names } });
  }

  /** 422 ERR_INVALID_SORT. */
  static invalidSort(message: string, details?: Record<string, unknown>): QueryError {
    return new QueryError({ code: 'ERR_INVALID_SORT', message, details });
  }

  /** 400 ERR_INVALID_REQUEST. */
  static invalidRequest(message: string, details?: Record<string, unknown>): QueryError {
    return new QueryError({ code: 'ERR_INVALID_REQUEST', message, details });
  }
}

/** True for a {@link QueryError} (also across duplicated module copies). */
export function isQueryError(error: unknown): error is QueryError {
  return error instanceof QueryError || (error instanceof Error && error.name === 'QueryError' && 'code' in error);
}
