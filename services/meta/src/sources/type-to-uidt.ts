/** A physical column found by introspection. */
export interface IntrospectedColumn {
  column_name: string;
  dt: string;
  dtxp?: string | null;
  rqd: boolean;
  pk: boolean;
  ai: boolean;
  cdf?: string | null;
}

/** A physical table found by introspection. */
export interface IntrospectedTable {
  table_name: string;
  columns: IntrospectedColumn[];
}

/** Maps a database type to the closest uidt (pg, MySQL/MariaDB and SQLite spellings). */
export function uidtOf(column: IntrospectedColumn): string {
  const dt = column.dt.toLowerCase();
  if (column.pk && column.ai) return 'ID';
  if (dt === 'tinyint(1)' || /^bool/.test(dt)) return 'Checkbox';
  if (/^(big|small|medium|tiny)?int|^integer|^serial|^bigserial/.test(dt)) return 'Number';
  if (/^(decimal|numeric|money)/.test(dt)) return 'Decimal';
  if (/^(double|real|float)/.test(dt)) return 'Decimal';
  if (dt === 'date') return 'Date';
  if (/^(timestamp|datetime)/.test(dt)) return 'DateTime';
  if (/^time/.test(dt)) return 'Time';
  if (dt === 'year') return 'Year';
  if (/^json/.test(dt)) return 'JSON';
  if (dt === 'uuid') return 'UUID';
  if (/text|clob/.test(dt)) return 'LongText';
  return 'SingleLineText';
}
