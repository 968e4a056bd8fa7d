import { RecordOperation, RecordsChangedSchema } from './gen/tabula/events/v1/records_pb';
import { decodeEvent, encodeEvent } from './event-codec';
import { decodeRecordsChanged, encodeRecordsChanged, type RecordsChangedFields } from './records-changed-codec';

/** A small seeded generator: the same cases on every run. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const ALPHABET = ['a', 'Z', '0', ' ', '"', '\\', 'é', 'ß', '€', '中', '😀', '\n', '\u0000', '\u007f', '\u0080', '\u07ff', '\u0800', '\uffff'];

function text(rnd: () => number, max: number): string {
  if (rnd() < 0.25) return '';
  const n = Math.floor(rnd() * max);
  let out = '';
  for (let i = 0; i < n; i++) out += ALPHABET[Math.floor(rnd() * ALPHABET.length)];
  return out;
}

function fields(rnd: () => number): RecordsChangedFields {
  const pick = rnd();
  const seconds = pick < 0.1 ? 0n : pick < 0.2 ? -BigInt(Math.floor(rnd() * 1e12)) : BigInt(Math.floor(rnd() * 4e10));
  const nanos = rnd() < 0.2 ? 0 : rnd() < 0.1 ? -Math.floor(rnd() * 1e9) : Math.floor(rnd() * 1e9);
  return {
    eventId: text(rnd, 40), type: text(rnd, 24), operation: Math.floor(rnd() * 9) as RecordOperation,
    baseId: text(rnd, 20), sourceId: text(rnd, 20), tableId: text(rnd, 20), tableTitle: text(rnd, 60),
    user: rnd() < 0.3 ? undefined : { id: text(rnd, 20), email: text(rnd, 40), tokenId: text(rnd, 20) },
    // Long enough at times for lengths of 2 and 3 varint bytes.
    rowsJson: text(rnd, rnd() < 0.1 ? 40_000 : 200), previousRowsJson: text(rnd, 100),
    occurredAt: rnd() < 0.1 ? undefined : { seconds, nanos },
  };
}

describe('encodeRecordsChanged (hand-written RecordsChanged encoder)', () => {
  it('writes the same bytes as the reflective encoder for 3,000 generated events', () => {
    const rnd = random(34);
    for (let i = 0; i < 3000; i++) {
      const f = fields(rnd);
      const reference = encodeEvent(RecordsChangedSchema, { ...f, occurredAt: f.occurredAt ? { ...f.occurredAt } : undefined });
      const ours = encodeRecordsChanged(f);
      expect(Buffer.from(ours).equals(Buffer.from(reference))).toBe(true);
    }
  });

  it('a typical insert event round-trips through the generated decoder', () => {
    const f: RecordsChangedFields = {
      eventId: '0b6c6a57-6a4e-4c1e-9d3e-0d8f5f1f2a11', type: 'records.after.insert', operation: RecordOperation.INSERT,
      baseId: 'p_1', sourceId: 'ds_1', tableId: 'm_1', tableTitle: 'Orders', user: { id: 'us_1', email: 'a@b.c', tokenId: '' },
      rowsJson: '[{"Id":1,"Name":"x"}]', previousRowsJson: '', occurredAt: { seconds: 1_764_000_000n, nanos: 123_000_000 },
    };
    const decoded = decodeEvent(RecordsChangedSchema, encodeRecordsChanged(f));
    expect(decoded).toMatchObject({ ...f, schemaVersion: 1, user: { id: 'us_1', email: 'a@b.c', tokenId: '' } });
  });
});

describe('decodeRecordsChanged (hand-written RecordsChanged decoder)', () => {
  const reflective = (bytes: Uint8Array) => {
    const m = decodeEvent(RecordsChangedSchema, bytes);
    return {
      schemaVersion: m.schemaVersion, eventId: m.eventId, type: m.type, operation: m.operation, baseId: m.baseId, sourceId: m.sourceId,
      tableId: m.tableId, tableTitle: m.tableTitle, user: m.user ? { id: m.user.id, email: m.user.email, tokenId: m.user.tokenId } : undefined,
      rowsJson: m.rowsJson, previousRowsJson: m.previousRowsJson,
      occurredAt: m.occurredAt ? { seconds: m.occurredAt.seconds, nanos: m.occurredAt.nanos } : undefined,
    };
  };

  it('reads what the reflective decoder reads, for 3,000 generated events', () => {
    const rnd = random(35);
    for (let i = 0; i < 3000; i++) {
      const bytes = encodeRecordsChanged(fields(rnd));
      expect(decodeRecordsChanged(bytes)).toEqual(reflective(bytes));
    }
  });

  it('skips unknown fields of every wire type (a newer producer) and keeps the last value of a repeated field', () => {
    const known = encodeRecordsChanged(fields(random(36)));
    const extra = Buffer.from([
      (13 << 3) | 0, 0x96, 0x01, // varint
      (14 << 3) | 1, 1, 2, 3, 4, 5, 6, 7, 8, // fixed64
      (15 << 3) | 2, 3, 0x61, 0x62, 0x63, // length-delimited
      0x85, 0x01, 1, 2, 3, 4, // field 16, fixed32 (a two-byte tag)
      (3 << 3) | 2, 4, 0x6c, 0x61, 0x73, 0x74, // type again: "last"
      (9 << 3) | 2, 5, (2 << 3) | 2, 3, 0x78, 0x40, 0x79, // user again: email "x@y" merged into the first
    ]);
    const bytes = Buffer.concat([Buffer.from(known), extra]);
    const ours = decodeRecordsChanged(bytes);
    expect(ours).toEqual(reflective(bytes));
    expect(ours.type).toBe('last');
    expect(ours.user?.email).toBe('x@y');
  });

  it('refuses a truncated message and a known field of the wrong wire type', () => {
    const bytes = encodeRecordsChanged({ ...fields(random(37)), tableId: 'm_1' });
    expect(() => decodeRecordsChanged(bytes.subarray(0, bytes.length - 1))).toThrow();
    expect(() => decodeRecordsChanged(Buffer.from([(7 << 3) | 0, 1]))).toThrow(/wire type/);
  });
});
