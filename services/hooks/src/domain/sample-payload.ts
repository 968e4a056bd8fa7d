import { z } from 'zod';
import type { ColumnInfo } from '@tabula/contracts';
import { buildPayload, type EventOperation } from './payload-builder';
import type { TableInScope } from './hook-access';
import { sampleParamsSchema } from '@tabula/contracts';

const SAMPLES: Record<string, unknown> = {
  SingleLineText: 'Sample Text', LongText: 'Sample Long text', RichText: 'Sample Long text', Email: 'test@nocodb.com',
  PhoneNumber: '123-456-7890', URL: 'https://www.example.com', Number: 123, Decimal: 123.45, Currency: 100, Percent: 50,
  Rating: 3, Duration: 360, Year: 2024, Checkbox: true, Date: '2024-01-01', DateTime: '2024-01-01 10:00:00+00:00',
  Time: '10:00:00', JSON: { key: 'value' }, Attachment: [{ url: 'https://www.example.com/sample.png', title: 'sample.png', mimetype: 'image/png', size: 1024 }],
  GeoData: '40.7128;-74.0060', ID: 1, AutoNumber: 1, CreatedTime: '2024-01-01 10:00:00+00:00', LastModifiedTime: '2024-01-01 10:00:00+00:00',
};

/** A type-appropriate sample value for a column. */
export function sampleValue(column: Pick<ColumnInfo, 'uidt' | 'colOptions'>): unknown {
  const options = column.colOptions?.options ?? [];
  if (column.uidt === 'SingleSelect') return options[0]?.title ?? 'Option 1';
  if (column.uidt === 'MultiSelect') return options.slice(0, 2).map((o) => o.title).join(',') || 'Option 1';
  return SAMPLES[column.uidt] ?? 'Sample Text';
}

/** A sample row from the table's real columns (system columns other than the key left out). */
export function sampleRow(columns: ColumnInfo[]): Record<string, unknown> {
  return Object.fromEntries(columns.filter((c) => c.pk || !c.system).map((c) => [c.title, sampleValue(c)]));
}

/** The payload a hook of this event/operation/version would receive for this table. */
export function samplePayload(scope: TableInScope, params: z.infer<typeof sampleParamsSchema>, includeUser: boolean) {
  const { principal, value: table } = scope;
  const row = sampleRow(table.table.columns);
  const op = params.operation as EventOperation;
  const bulk = op.startsWith('bulk');
  const payload = buildPayload(params.version, {
    event: params.event, operation: op, baseId: table.base.id, tableId: table.table.id, tableTitle: table.table.title,
    rows: bulk ? [row, row] : [row], previousRows: op.toLowerCase().includes('update') ? (bulk ? [row, row] : [row]) : undefined,
  });
  if (!includeUser || typeof payload !== 'object' || Array.isArray(payload)) return payload;
  return { ...(payload as object), user: { id: principal.id, email: principal.email } };
}
