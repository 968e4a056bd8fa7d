import type { TableContext } from '@tabula/contracts';
import type { Dialect } from '@tabula/query';

/** The source dialect of a table context. */
export function dialectOf(context: TableContext): Dialect {
  const source = context.source as { is_meta?: boolean; type?: string };
  return source.is_meta || !source.type ? 'pg' : (source.type as Dialect);
}
