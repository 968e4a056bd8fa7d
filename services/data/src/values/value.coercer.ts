import { valueRuleOf, type ValueRule } from '@tabula/query';
import { toBoolean, toDecimal, toDuration, toFormattedText, toInteger, toText, toUuid, type CoercionColumn } from './scalar.coercers';
import { toDate, toDateTime, toTime } from './date.coercers';
import { toAttachments, toGeoData, toJson, toMultiSelect, toSingleSelect } from './structured.coercers';

type Coercer = (column: CoercionColumn, raw: unknown) => unknown;

/** The coercer of each value rule of the uidt catalogue; rules without one trust primitives. */
const COERCERS: Partial<Record<ValueRule, Coercer>> = {
  text: toText, email: toFormattedText, url: toFormattedText, phone: toFormattedText,
  integer: toInteger, year: toInteger, rating: toInteger, decimal: toDecimal, duration: toDuration,
  boolean: toBoolean, date: toDate, datetime: toDateTime, time: toTime,
  singleSelect: toSingleSelect, multiSelect: toMultiSelect,
  json: toJson, attachment: toAttachments, geoData: toGeoData, uuid: toUuid,
};

/**
 * Turns a client value into what is stored for the column's uidt, or throws
 * 400 ERR_INVALID_VALUE_FOR_FIELD naming the column. null/undefined (and ''
 * outside text columns) give null; the required check is the caller's.
 */
export function coerceValue(column: CoercionColumn, raw: unknown): unknown {
  if (raw === null || raw === undefined) return null;
  // Text columns keep '' as a value; for every other type '' means "no value".
  const rule = valueRuleOf(column.uidt);
  if (raw === '' && rule !== 'text') return null;
  const coercer = COERCERS[rule] ?? coerceByDt;
  return coercer(column, raw);
}

/** Unknown uidts (external tables): trust primitives, refuse structures. */
function coerceByDt(column: CoercionColumn, raw: unknown): unknown {
  if (typeof raw === 'object') return toJson(column, raw);
  return raw;
}
