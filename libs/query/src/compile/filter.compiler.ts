import type { Knex } from 'knex';
import { toColumnIndex, type ColumnIndex } from '../column/column-index';
import type { ColumnMeta, Dialect, RelatedRows } from '../column/column.types';
import { columnKind } from '../column/column-kind';
import type { FilterCondition, FilterGroup, FilterNode } from '../filter/filter.types';
import { canonicalOp } from '../filter/operators';
import { assertOpSupported } from '../filter/op-support';
import { assertValueTypes, invalidAst } from './ast-guard';
import type { ConditionContext, FilterCompileOptions } from './compile-context';
import { compileCondition } from './condition.compiler';
import { dialectSql, type DialectSql } from './dialect.sql';
import { Fragment, ident } from './sql-fragment';

const MAX_COMPILE_DEPTH = 200;

interface GroupContext {
  dialect: Dialect;
  d: DialectSql;
  now: Date;
  columns: ColumnIndex;
  tableAlias?: string;
}

/**
 * Compiles a filter AST to one SQL fragment (`?`/`??` placeholders and bindings);
 * null when it adds no constraint. Identifiers come only from column metadata.
 * @throws QueryError 422 for an AST naming unknown columns or holding invalid values.
 */
export function compileFilter(
  ast: FilterGroup,
  columns: readonly ColumnMeta[] | ColumnIndex,
  dialect: Dialect,
  options: FilterCompileOptions = {},
): Fragment | null {
  const now = options.now ?? new Date();
  if (Number.isNaN(now.getTime())) throw new TypeError('compileFilter: options.now is an invalid Date');
  const ctx: GroupContext = { dialect, d: dialectSql(dialect), now, columns: toColumnIndex(columns), tableAlias: options.tableAlias };
  return compileNode(ast, ctx, 0);
}

/**
 * Adds a filter AST to a knex query as one parenthesised `WHERE` term (ANDed with
 * what the query already has). Every value is a binding.
 */
export function applyFilter<Q extends Knex.QueryBuilder>(
  qb: Q,
  ast: FilterGroup,
  columns: readonly ColumnMeta[] | ColumnIndex,
  dialect: Dialect,
  options: FilterCompileOptions = {},
): Q {
  const fragment = compileFilter(ast, columns, dialect, options);
  if (fragment) qb.whereRaw(`(${fragment.sql})`, fragment.bindings as Knex.Value[]);
  return qb;
}

function compileNode(node: FilterNode, ctx: GroupContext, depth: number): Fragment | null {
  if (!node || typeof node !== 'object') throw invalidAst('bad node');
  if (node.type === 'condition') return compileLeaf(node, ctx);
  if (node.type !== 'group' || !Array.isArray(node.children)) throw invalidAst('bad node');
  if (depth > MAX_COMPILE_DEPTH) throw invalidAst('nested too deeply');
  let text = '';
  const bindings: Knex.Value[] = [];
  for (const child of node.children) {
    const fragment = compileNode(child, ctx, depth + 1);
    if (!fragment) continue;
    text += connector(child.logicalOp, text === '') + `(${fragment.sql})`;
    bindings.push(...fragment.bindings);
  }
  return text ? new Fragment(text, bindings) : null;
}

function connector(op: FilterNode['logicalOp'], first: boolean): string {
  if (first) return op === 'not' ? 'NOT ' : '';
  if (op === 'or') return ' OR ';
  if (op === 'not') return ' AND NOT ';
  if (op === 'and') return ' AND ';
  throw invalidAst('bad logical operator');
}

/** A list (has-many lookup) matches when some value meets the condition; these hold when none meets their positive form. */
const NEGATED: Partial<Record<string, FilterCondition['op']>> = { neq: 'eq', nlike: 'like', blank: 'notblank', notin: 'in' };
const LIST_OPS = new Set<string>(['eq', 'like', 'gt', 'gte', 'lt', 'lte', 'notblank', 'in', 'checked', 'notchecked', 'isWithin']);

/**
 * A list has values or none: null, empty and `is null`/`is blank` mean no
 * non-blank value (`blank`); their opposites some non-blank value (`notblank`).
 */
function listForm(cond: FilterCondition): Pick<FilterCondition, 'op' | 'value'> {
  const nothing: Partial<Record<string, boolean>> = { null: true, empty: true, blank: true, notnull: false, notempty: false, notblank: false };
  let none = nothing[cond.op];
  if ((cond.op === 'is' || cond.op === 'isnot') && typeof cond.value === 'string') {
    const arg = nothing[cond.value.trim().toLowerCase()];
    if (arg !== undefined) none = cond.op === 'is' ? arg : !arg;
  }
  return none === undefined ? { op: cond.op, value: cond.value } : { op: none ? 'blank' : 'notblank', value: undefined };
}

/** `EXISTS` a related row (of a list of lists: a row of some related row's list) whose value meets `condition`. */
function existsIn(rows: RelatedRows, condition: (value: Fragment) => Fragment | null): Fragment | null {
  const inner = rows.inner ? existsIn(rows.inner, condition) : rows.value ? condition(rows.value) : null;
  if (!inner) return null;
  return new Fragment(`EXISTS (SELECT 1 FROM ${rows.from.sql} AND (${inner.sql}))`, [...rows.from.bindings, ...inner.bindings]);
}

function compileLeaf(cond: FilterCondition, ctx: GroupContext): Fragment | null {
  const column = typeof cond.columnId === 'string' ? ctx.columns.byColumnId(cond.columnId) : undefined;
  if (!column) throw invalidAst(`unknown column id '${String(cond.columnId).slice(0, 100)}'`);
  const op = canonicalOp(String(cond.op));
  if (op !== cond.op) throw invalidAst(`unknown operator '${String(cond.op).slice(0, 50)}'`);
  const kind = columnKind(column);
  assertOpSupported(column, kind, op);
  assertValueTypes(cond.value, kind, op);
  const name = ctx.tableAlias ? `${ctx.tableAlias}.${column.column_name}` : column.column_name;
  const related = column.computed?.related;
  if (related) {
    const listCond = { ...cond, ...listForm(cond) };
    const listOp = listCond.op;
    const negated = NEGATED[listOp];
    if (!negated && !LIST_OPS.has(listOp)) throw invalidAst(`'${listOp}' is not supported on the list '${column.title}'`);
    const some = existsIn(related, (value) => compileCondition({ ...listCond, op: negated ?? listOp }, { dialect: ctx.dialect, d: ctx.d, now: ctx.now, column, kind, col: value }));
    return some && (negated ? new Fragment(`NOT ${some.sql}`, some.bindings) : some);
  }
  const col = column.computed ? column.computed.expression : ident(name);
  const condCtx: ConditionContext = { dialect: ctx.dialect, d: ctx.d, now: ctx.now, column, kind, col };
  return compileCondition(cond, condCtx);
}
