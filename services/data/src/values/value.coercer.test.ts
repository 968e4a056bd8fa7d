import { AppError } from '@tabula/http';
import { coerceValue } from './value.coercer';
import { toDecimal, toFormattedText, toText, type CoercionColumn } from './scalar.coercers';
import { toDate } from './date.coercers';

const col = (uidt: string, extra: Partial<CoercionColumn> = {}): CoercionColumn => ({ title: `My ${uidt}`, uidt, ...extra });

function rejects(column: CoercionColumn, raw: unknown): AppError {
  try {
    coerceValue(column, raw);
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    const e = err as AppError;
    expect(e.status).toBe(400);
    expect(e.code).toBe('ERR_INVALID_VALUE_FOR_FIELD');
    expect(e.message).toContain(column.title);
    return e;
  }
  throw new Error(`accepted ${JSON.stringify(raw)}`);
}

describe('coerceValue', () => {
  it('passes null through and treats empty text as null outside text columns', () => {
    expect(coerceValue(col('Number'), null)).toBeNull();
    expect(coerceValue(col('Number'), '')).toBeNull();
    expect(coerceValue(col('SingleLineText'), '')).toBe('');
  });

  it('text: primitives become text, objects and over-long values are refused', () => {
    expect(coerceValue(col('SingleLineText'), 12)).toBe('12');
    rejects(col('SingleLineText'), { a: 1 });
    rejects(col('SingleLineText', { dt: 'varchar', dtxp: 3 }), 'abcd');
  });

  it('email, url, phone', () => {
    expect(coerceValue(col('Email'), 'a@b.io')).toBe('a@b.io');
    rejects(col('Email'), 'not-an-email');
    expect(coerceValue(col('URL'), 'https://example.com/x?y=1')).toBe('https://example.com/x?y=1');
    rejects(col('URL'), 'not a url');
    expect(coerceValue(col('PhoneNumber'), '+1 (555) 123-4567')).toBe('+1 (555) 123-4567');
    rejects(col('PhoneNumber'), 'call me');
  });

  it('numbers: integers, decimals with scale, rating bounds, year, duration', () => {
    expect(coerceValue(col('Number'), '42')).toBe(42);
    rejects(col('Number'), 1.5);
    rejects(col('Number'), 'abc');
    rejects(col('Number'), true);
    expect(coerceValue(col('Decimal', { dtxs: 2 }), '1.005')).toBeCloseTo(1.0, 2);
    expect(coerceValue(col('Currency'), 9.99)).toBe(9.99);
    expect(coerceValue(col('Percent'), '55.5')).toBe(55.5);
    expect(coerceValue(col('Rating', { meta: { max: 5 } }), 5)).toBe(5);
    rejects(col('Rating', { meta: { max: 5 } }), 6);
    rejects(col('Year'), 99);
    expect(coerceValue(col('Duration'), '1:30')).toBe(5400);
    rejects(col('Duration'), '1:xx');
  });

  it('checkbox', () => {
    expect(coerceValue(col('Checkbox'), 'true')).toBe(true);
    expect(coerceValue(col('Checkbox'), 0)).toBe(false);
    rejects(col('Checkbox'), 'maybe');
  });

  it('dates, datetimes and times', () => {
    expect(coerceValue(col('Date'), '2024-02-29')).toBe('2024-02-29');
    expect(coerceValue(col('Date'), '2024-02-29T10:00:00Z')).toBe('2024-02-29');
    rejects(col('Date'), '2023-02-29');
    rejects(col('Date'), 'yesterday');
    expect(coerceValue(col('DateTime'), '2024-01-31 23:30:00+02:00')).toBe('2024-01-31 21:30:00');
    expect(coerceValue(col('DateTime', { dt: 'timestamptz' }), '2024-01-31T10:00:00Z')).toBe('2024-01-31 10:00:00+00:00');
    rejects(col('DateTime'), '2024-13-01 00:00:00');
    expect(coerceValue(col('Time'), '9:05')).toBe('09:05:00');
    rejects(col('Time'), '25:00');
  });

  it('selects list the options when refused', () => {
    const single = col('SingleSelect', { colOptions: { options: [{ title: 'a' }, { title: 'b' }] } });
    expect(coerceValue(single, 'a')).toBe('a');
    expect(rejects(single, 'c').message).toContain("'a', 'b'");
    const multi = col('MultiSelect', { colOptions: { options: [{ title: 'x' }, { title: 'y' }] } });
    expect(coerceValue(multi, ['x', 'y'])).toBe('x,y');
    expect(coerceValue(multi, 'y, x')).toBe('y,x');
    rejects(multi, 'x,z');
  });

  it('json, attachments, geodata, uuid', () => {
    expect(coerceValue(col('JSON'), { a: [1] })).toBe('{"a":[1]}');
    rejects(col('JSON'), '{bad');
    const att = [{ title: 'a.png', mimetype: 'image/png', size: 3, url: 'https://x/a.png' }];
    expect(JSON.parse(coerceValue(col('Attachment'), att) as string)).toEqual(att);
    rejects(col('Attachment'), [{ title: 'no path' }]);
    rejects(col('Attachment'), 'x');
    expect(coerceValue(col('GeoData'), '52.5; 13.4')).toBe('52.5;13.4');
    rejects(col('GeoData'), '100;0');
    rejects(col('UUID'), 'nope');
  });
});

describe('coerceValue compiled per column = the reference coercers', () => {
  /** The value, or the error's message: what a client would see. */
  const outcome = (fn: () => unknown): unknown => {
    try {
      return { value: fn() };
    } catch (err) {
      return { error: (err as Error).message };
    }
  };
  const same = (column: CoercionColumn, reference: (c: CoercionColumn, raw: unknown) => unknown, inputs: unknown[]) => {
    for (const raw of inputs) {
      if (raw === null || raw === undefined || raw === '') continue;
      expect([raw, outcome(() => coerceValue(column, raw))]).toEqual([raw, outcome(() => reference(column, raw))]);
    }
  };

  it('dates: every day of every month around leap years, century years and year 100, and malformed text', () => {
    const pad = (n: number, w: number) => String(n).padStart(w, '0');
    const inputs: unknown[] = [];
    for (const y of [0, 99, 100, 999, 1000, 1900, 2000, 2023, 2024, 2100, 9999]) {
      for (let m = 0; m <= 13; m++) for (let d = 0; d <= 32; d++) inputs.push(`${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`);
    }
    inputs.push('2024-05-17 10:11:12', ' 2024-05-17', '2024-5-17', '2024/05/17', '20240517', '2024-05-1a', 'abcd-ef-gh', '+024-05-17', 20240517, true, {});
    same({ title: 'Due', uidt: 'Date', dt: 'date' }, toDate, inputs);
  });

  it('decimals: integers (no rounding needed), negative zero, rounding, huge and invalid numbers, at several scales', () => {
    const inputs: unknown[] = [0, -0, 1, -1, 42, 1.005, 2.675, -2.675, 0.1 + 0.2, 1e21, -1e21, 2 ** 53 + 2, 123456789.123456, -12345678901234.56,
      '12.345', ' 7 ', '7.', '-0', 'abc', NaN, Infinity, -Infinity, true, {}];
    for (const column of [
      { title: 'Price', uidt: 'Decimal', dt: 'numeric', dtxs: 2 }, { title: 'Price', uidt: 'Decimal', dt: 'numeric', dtxs: 0 },
      { title: 'Price', uidt: 'Currency', meta: { precision: 10 } }, { title: 'Price', uidt: 'Decimal' }, { title: 'Share', uidt: 'Percent', dtxs: 2 },
    ] as CoercionColumn[]) same(column, toDecimal, inputs);
  });

  it('text and formatted text: length limits of varchar(n), numbers and booleans as text, refused structures', () => {
    const inputs: unknown[] = ['', 'a', 'abcde', 'abcdef', ' padded@example.com ', 'u1@example.com', 'not an email', 'https://example.com/x', '+351 912 345 678', 12, 12.5, true, {}, []];
    for (const column of [
      { title: 'Name', uidt: 'SingleLineText', dt: 'text' }, { title: 'Code', uidt: 'SingleLineText', dt: 'character varying', dtxp: 5 },
      { title: 'Code', uidt: 'SingleLineText', dt: 'character varying', dtxp: '5' }, { title: 'Code', uidt: 'SingleLineText', dt: 'text', dtxp: 5 },
    ] as CoercionColumn[]) same(column, toText, inputs);
    for (const column of [
      { title: 'Mail', uidt: 'Email', dt: 'character varying', dtxp: 255 }, { title: 'Mail', uidt: 'Email', dt: 'character varying', dtxp: 10 },
      { title: 'Site', uidt: 'URL', dt: 'text' }, { title: 'Phone', uidt: 'PhoneNumber', dt: 'text' },
    ] as CoercionColumn[]) same(column, toFormattedText, inputs);
  });
});
