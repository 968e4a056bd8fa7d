import { ChangeAction, ColumnChangedSchema, encodeEvent } from '@tabula/contracts';
import { relatedTablesOf } from './meta-cache.consumer';

describe('relatedTablesOf', () => {
  const column = (relation?: object) => encodeEvent(ColumnChangedSchema, {
    eventId: 'e1', action: ChangeAction.UPDATED, baseId: 'p1', tableId: 'mpeople', columnId: 'c1', columnTitle: 'Skills', uidt: 'Links',
    ...(relation ? { relation } : {}),
  });

  it('names the related and junction tables of a relation column event', () => {
    expect(relatedTablesOf({ type: 'meta.column.updated', payload: column({ type: 'mm', relatedTableId: 'mskills', mmTableId: 'mjunction' }) }))
      .toEqual(['mskills', 'mjunction']);
    expect(relatedTablesOf({ type: 'meta.column.created', payload: column({ type: 'bt', relatedTableId: 'mteams', relationColumnId: 'c0' }) }))
      .toEqual(['mteams']);
  });

  it('names none for other columns, other events and undecodable payloads', () => {
    expect(relatedTablesOf({ type: 'meta.column.created', payload: column() })).toEqual([]);
    expect(relatedTablesOf({ type: 'meta.table.updated', payload: column({ relatedTableId: 'mteams' }) })).toEqual([]);
    expect(relatedTablesOf({ type: 'meta.column.deleted', payload: new Uint8Array([0xff, 0xff, 0xff]) })).toEqual([]);
    expect(relatedTablesOf({ type: 'meta.column.deleted', payload: new Uint8Array() })).toEqual([]);
  });
});
