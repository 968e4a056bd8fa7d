import type { Knex } from 'knex';
import { appError } from '@tabula/http';
import type { ColumnRow } from '../../repositories/column.repository';
import type { TableRow } from '../../repositories/table.repository';
import { userTable, type SourceHandle } from '../../ddl/dialect';
import { compiledFormulaOf } from './formula-column';

/** Rows a formula is run on when it is saved. */
const PROBE_ROWS = 100;

/** Ends the probe's savepoint (rolled back whether the formula ran or not). */
class ProbeRan extends Error {}

/** The database's own words: knex prefixes the statement ("select … - message"); MySQL also keeps it apart. */
function databaseMessage(err: unknown): string {
  const e = err as { sqlMessage?: string; message?: string };
  if (e.sqlMessage) return e.sqlMessage;
  const message = String(e.message ?? err);
  const cut = message.lastIndexOf(' - ');
  return cut >= 0 ? message.slice(cut + 3) : message;
}

/** SQLSTATE classes and SQLite codes of a database or connection in trouble (not the statement's fault). */
const NOT_THE_FORMULA = /^(08|53|57|58|XX)|^SQLITE_(BUSY|LOCKED|IOERR|CANTOPEN|FULL|CORRUPT|NOMEM)|^E[A-Z]+$/;

/** Whether the statement failed because of what it says (not a lost connection, a full disk…). */
function isStatementError(err: unknown): boolean {
  const e = err as { code?: unknown; sqlState?: unknown; fatal?: boolean };
  if (e.fatal) return false;
  const code = typeof e.sqlState === 'string' ? e.sqlState : typeof e.code === 'string' ? e.code : '';
  return !NOT_THE_FORMULA.test(code);
}

/**
 * Runs a Formula column on its table before it is saved. Compiling proved its
 * syntax, fields and types; running proves the database accepts the SQL (a
 * value it refuses, an expression too deep for it) on this table's rows, so a
 * formula that would fail every read is refused now: 400 ERR_INVALID_FORMULA
 * naming the database's error. It runs in a savepoint of the source's
 * transaction that is rolled back either way, over at most 100 rows.
 */
export async function probeFormula(ddl: SourceHandle, table: TableRow, column: ColumnRow, existing: ColumnRow[]): Promise<void> {
  const { select } = compiledFormulaOf(column, existing, ddl.dialect);
  try {
    await ddl.knex.transaction(async (trx: Knex.Transaction) => {
      const rows = userTable(ddl, table.table_name, trx).select(trx.raw(`${select.sql} AS ??`, [...select.bindings, 'v'])).limit(PROBE_ROWS);
      // count(v) makes every row's value computed (an unused column may not be).
      await trx.from(rows.as('probe')).count({ n: 'v' });
      throw new ProbeRan();
    });
  } catch (err) {
    if (err instanceof ProbeRan) return;
    if (!isStatementError(err)) throw err;
    throw appError('ERR_INVALID_FORMULA', `Invalid formula: it fails when run on table '${table.title}': ${databaseMessage(err)}`, {
      problem: databaseMessage(err),
    });
  }
}
