import { toBoolean, toDecimal, toDuration, toFormattedText, toInteger, toText, toUuid, type CoercionColumn } from './scalar.coercers';
import { toDate, toDateTime, toTime } from './date.coercers';
import { toAttachments, toGeoData, toJson, toMultiSelect, toSingleSelect } from './structured.coercers';

type Coercer = (column: CoercionColumn, raw: unknown) => unknown;

const COERCERS: Record<string, Coercer> = {
  SingleLineText: toText, LongText: toText, User: toText, Geometry: toText, SpecificDBType: toText,
  Email: toFormattedText, URL: toFormattedText, PhoneNumber: toFormattedText,
  Number: toInteger, Year: toInteger, Rating: toInteger,
  Decimal: toDecimal, Currency: toDecimal, Percent: toDecimal, Duration: toDuration,
  Checkbox: toBoolean, Date: toDate, DateTime: toDateTime, Time: toTime,
  SingleSelect: toSingleSelect, MultiSelect: toMultiSelect,
  JSON: toJson, Attachment: toAttachments, GeoData: toGeoData, UUID: toUuid,
};

/** Text columns keep '' as a value; for every other type '' means "no value". */
const TEXT_UIDTS = new Set(['SingleLineText', 'LongText', 'User', 'Geometry', 'SpecificDBType']);

/**
 * Turns a client value into what is stored for the column's uidt, or throws
 * 400 ERR_INVALID_VALUE_FOR_FIELD naming the column. null/undefined (and ''
 * outside text columns) give null; the required check is the caller's.
 */
export function coerceValue(column: CoercionColumn, raw: unknown): unknown {
  if (raw === null || raw === undefined) return null;
  if (raw === '' && !TEXT_UIDTS.has(column.uidt)) return null;
  const coercer = COERCERS[column.uidt] ?? coerceByDt;
  return coercer(column, raw);
}

/** Unknown uidts (external tables): trust primitives, refuse structures. */
function coerceByDt(column: CoercionColumn, raw: unknown): unknown {
  if (typeof raw === 'object') return toJson(column, raw);
  return raw;
}
