import { fromEnvelope, metadataHeaders, toEnvelope } from './envelope';

describe('envelope', () => {
  it('puts the metadata into CloudEvents-style headers and reads it back', () => {
    const envelope = toEnvelope(
      { topic: 'tabula.meta', key: 'tbl', type: 'meta.table.deleted', version: 2, payload: new Uint8Array([7]), headers: { 'x-a': '1' }, id: 'e1' },
      'tabula-meta',
    );
    expect(envelope.headers).toMatchObject({
      [metadataHeaders.id]: 'e1',
      [metadataHeaders.type]: 'meta.table.deleted',
      [metadataHeaders.schemaVersion]: '2',
      [metadataHeaders.source]: 'tabula-meta',
      [metadataHeaders.specVersion]: '1.0',
      'x-a': '1',
    });
    const message = fromEnvelope(envelope, '5');
    expect(message).toMatchObject({ id: 'e1', type: 'meta.table.deleted', version: 2, key: 'tbl', headers: { 'x-a': '1' }, offset: '5' });
  });

  it('still delivers a message from a foreign producer, with an id stable across redeliveries', () => {
    const message = fromEnvelope({ topic: 'x', key: '', payload: new Uint8Array(), headers: {} }, '0-1');
    expect(message).toMatchObject({ id: 'x/0-1', type: 'unknown', version: 1 });
  });
});
