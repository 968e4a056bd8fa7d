/**
 * @tabula/query: the `where` language, filterArrJson, sort and fields
 * of the NocoDB v1 records API, and their translation to knex for pg, mysql2 and sqlite3.
 */
export { QueryError, isQueryError, QUERY_ERROR_STATUS, type QueryErrorCode, type QueryErrorInit } from './query-error';
export type { ColumnMeta, ComputedColumn, Dialect, RelatedRows } from './column/column.types';
export { ColumnIndex } from './column/column-index';
export { columnKind, isLinkColumn, type ColumnKind } from './column/column-kind';
export {
  UIDT_CATALOGUE, CREATABLE_UIDTS, uidtEntry, isVirtualUidt, isAutoUidt, systemColumnOf, valueRuleOf, uidtsIn,
  isLinkUidt, isThroughLinkUidt, isRelationUidt, isSelectUidt, isDtCompareUidt, isNoLookupUidt, isPrimaryValueUidt,
  isUnindexableUidt, isScaledUidt, isIntegerKeyUidt, isFormulaNumberUidt, isFormulaTextUidt, isFormulaDatetimeUidt,
  isSwaggerStringUidt, isJsonNumberUidt, isJsonParsedUidt, isPgJsonNumberUidt, isPgJsonTextUidt, isCalendarDateUidt,
  isUserStampUidt, isUserListUidt, isCodeOfColumnUidt, isNoCodeSourceUidt,
  type Uidt, type UidtEntry, type UidtGroup, type UidtKind, type Storage, type ValueRule, type CompareKind, type DialectTypes,
} from './column/uidt-catalogue';
export type {
  ComparisonOp, DateSubOp, FilterCondition, FilterGroup, FilterNode, IsArgument, LogicalOp,
  RawCondition, RawGroup, RawNode, RawValue, Scalar, WithinSubOp,
} from './filter/filter.types';
export { FILTER_LIMITS } from './filter/limits';
export { measureFilterTree, storedFilterTreeProblem, type FilterTreeSize } from './filter/stored-tree.limits';
export { parseWhereSyntax } from './filter/where.parser';
export { andFilters, emptyFilter, parseWhere, resolveFilter } from './filter/filter.resolver';
export { isTimeZone } from './compile/date-range';
export { normaliseFilterArr, parseFilterArrJson } from './filter/filter-arr-json.normaliser';
export { filterFromRows, type FilterRowsOptions, type StoredFilterRow } from './filter/filter-rows.loader';
export { applyFilter, compileFilter } from './compile/filter.compiler';
export { matchesFilter } from './evaluate/filter.evaluator';
export type { FilterCompileOptions } from './compile/compile-context';
export { Fragment, ident } from './compile/sql-fragment';
export type { SortDirection, SortItem, StoredSortRow } from './sort/sort.types';
export { parseSort, parseSortArrJson, sortsFromRows } from './sort/sort.parser';
export { applySort, type SortCompileOptions } from './sort/sort.compiler';
export { resolveFields, type FieldsOptions } from './fields/fields.resolver';
export { formulaKind } from './formula/formula-kind';
export {
  compileFormula, formulaNumber, parseFormula, presentFormulaValue, formulaTypeOf, fieldReferences, FORMULA_FUNCTIONS, FORMULA_LIMITS,
  type CompiledFormula, type FormulaType, type FormulaColumn, type ColumnFormulaOptions,
} from './formula';
