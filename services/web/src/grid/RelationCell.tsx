import type { Column } from '../api';
import { countText, isLinkUidt, labelOf, linkedRecords, relationText } from '../relations';

/** A link cell: chips of the linked records' display values, or their count; a lookup's or rollup's value as text. */
export function RelationCell({ column, value }: { column: Column; value: unknown }) {
  if (!isLinkUidt(column.uidt)) return <span className="text">{relationText(column, value)}</span>;
  const linked = linkedRecords(value);
  if (typeof linked === 'number') return <span className="text link-count">{countText(linked)}</span>;
  return (
    <span className="chips">
      {linked.map((record, i) => <span key={i} className="chip">{labelOf(record)}</span>)}
    </span>
  );
}
