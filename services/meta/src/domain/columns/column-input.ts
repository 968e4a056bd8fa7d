/** The column request schemas live in the meta contracts (libs/contracts/src/meta/columns.ts). */
export { columnFieldsSchema, columnPatchSchema, selectOptionSchema, type ColumnFields, type ColumnPatch } from '@tabula/contracts';
