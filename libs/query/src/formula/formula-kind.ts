import type { ComputedColumn } from '../column/column.types';
import type { FormulaType } from './formula.ast';

/** How a formula's values compare in filters (a number formula filters like a Number column). */
export function formulaKind(type: FormulaType): ComputedColumn['kind'] {
  switch (type) {
    case 'number': return 'number';
    case 'boolean': return 'checkbox';
    case 'date': return 'date';
    case 'datetime': return 'datetime';
    default: return 'text';
  }
}
