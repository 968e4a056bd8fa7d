import {
  ChangeAction,
  RecordOperation,
  RecordsChangedSchema,
  TableChangedSchema,
  decodeEvent,
  encodeEvent,
  timestampDate,
  timestampFromDate,
  topics,
} from '@tabula/contracts';

describe('event codec', () => {
  it('round-trips a RecordsChanged payload through protobuf binary', () => {
    const occurredAt = new Date('2024-05-01T10:00:00.123Z');
    const bytes = encodeEvent(RecordsChangedSchema, {
      eventId: '0b0e8f9e-3d0c-4c3e-9f55-8f4b7f3c2a11',
      type: 'records.after.insert',
      operation: RecordOperation.BULK_INSERT,
      baseId: 'p1',
      tableId: 'm1',
      tableTitle: 'Films',
      user: { id: 'u1', email: 'a@b.c' },
      rowsJson: JSON.stringify([{ Id: 1, Title: 'Alien' }]),
      occurredAt: timestampFromDate(occurredAt),
    });
    const decoded = decodeEvent(RecordsChangedSchema, bytes);
    expect(decoded.schemaVersion).toBe(1);
    expect(decoded.operation).toBe(RecordOperation.BULK_INSERT);
    expect(decoded.user?.email).toBe('a@b.c');
    expect(JSON.parse(decoded.rowsJson)).toEqual([{ Id: 1, Title: 'Alien' }]);
    expect(decoded.previousRowsJson).toBe('');
    expect(timestampDate(decoded.occurredAt!).toISOString()).toBe(occurredAt.toISOString());
  });

  it('keeps an explicit schema version', () => {
    const bytes = encodeEvent(TableChangedSchema, { schemaVersion: 2, action: ChangeAction.DELETED, tableId: 'm1' });
    const decoded = decodeEvent(TableChangedSchema, bytes);
    expect(decoded.schemaVersion).toBe(2);
    expect(decoded.action).toBe(ChangeAction.DELETED);
  });

  it('names the topics', () => {
    expect(topics).toMatchObject({ records: 'records', meta: 'meta', auth: 'auth' });
  });
});
