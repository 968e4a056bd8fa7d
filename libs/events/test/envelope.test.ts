import { copyHeaders, fromEnvelope, metadataHeaders, PUBLISHED_AT_HEADER, toEnvelope } from '../src/envelope';

describe('envelope', () => {
  it('copies the headers it adds to: the caller\'s object is untouched, every header kept, a __proto__ key dropped', () => {
    const parsed = JSON.parse('{"traceparent":"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01","x-extra":"1","__proto__":{"polluted":"yes"}}') as Record<string, string>;
    const copy = copyHeaders(parsed);
    expect(copy).toEqual({ traceparent: parsed.traceparent, 'x-extra': '1' });
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect((copy as { polluted?: string }).polluted).toBeUndefined();
    copy.added = 'x';
    expect(parsed.added).toBeUndefined();
    expect(copyHeaders(undefined)).toEqual({});
  });

  it('puts the metadata into the headers and reads it back, the caller\'s headers unchanged', () => {
    const headers = { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', 'x-extra': '1' };
    const envelope = toEnvelope({
      id: 'e1', topic: 'tabula.records', key: 'k', type: 'records.after.insert', version: 2, payload: new Uint8Array([1, 2]), headers, timestamp: '2026-11-27T10:00:00.000Z',
    }, 'data');
    expect(headers).toEqual({ traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', 'x-extra': '1' });
    expect(envelope.headers).toMatchObject({
      traceparent: headers.traceparent, 'x-extra': '1',
      [metadataHeaders.id]: 'e1', [metadataHeaders.type]: 'records.after.insert', [metadataHeaders.source]: 'data',
      [metadataHeaders.time]: '2026-11-27T10:00:00.000Z', [metadataHeaders.schemaVersion]: '2', [metadataHeaders.specVersion]: '1.0',
    });
    expect(Number(envelope.headers[PUBLISHED_AT_HEADER])).toBeGreaterThan(0);
    const message = fromEnvelope(envelope);
    expect(message).toMatchObject({ id: 'e1', type: 'records.after.insert', key: 'k', version: 2, timestamp: '2026-11-27T10:00:00.000Z' });
    expect(message.headers).toMatchObject({ traceparent: headers.traceparent, 'x-extra': '1' });
  });
});
