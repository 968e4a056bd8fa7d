import { valueRuleOf, type ValueRule } from '@tabula/query';
import { decimalCoercer, formattedTextCoercer, textCoercer, toBoolean, toDuration, toInteger, toUuid, type CoercionColumn } from './scalar.coercers';
import { dateCoercer, toDateTime, toTime } from './date.coercers';
import { toAttachments, toGeoData, toJson, toMultiSelect, toSingleSelect } from './structured.coercers';

type Coercer = (column: CoercionColumn, raw: unknown) => unknown;
type CoercerFactory = (column: CoercionColumn) => (raw: unknown) => unknown;

/** A coercer that reads its column's settings per value, as a factory. */
const perValue = (coercer: Coercer): CoercerFactory => (column) => (raw) => coercer(column, raw);

/**
 * The coercer factory of each value rule of the uidt catalogue; rules without
 * one trust primitives. Text, formatted text, decimals and dates read their
 * column's settings (length limit, pattern, scale) once, in the factory.
 */
const COERCERS: Partial<Record<ValueRule, CoercerFactory>> = {
  text: textCoercer, email: formattedTextCoercer, url: formattedTextCoercer, phone: formattedTextCoercer,
  integer: perValue(toInteger), year: perValue(toInteger), rating: perValue(toInteger), decimal: decimalCoercer, duration: perValue(toDuration),
  boolean: perValue(toBoolean), date: dateCoercer, datetime: perValue(toDateTime), time: perValue(toTime),
  singleSelect: perValue(toSingleSelect), multiSelect: perValue(toMultiSelect),
  json: perValue(toJson), attachment: perValue(toAttachments), geoData: perValue(toGeoData), uuid: perValue(toUuid),
};

/**
 * Turns a client value into what is stored for the column's uidt, or throws
 * 400 ERR_INVALID_VALUE_FOR_FIELD naming the column. null/undefined (and ''
 * outside text columns) give null; the required check is the caller's.
 * The column's coercer is built once per column object (a bulk insert
 * coerces 1000 rows of the same columns: looking the rule, limits and scale
 * up again for every value was a fifth of its CPU).
 */
export function coerceValue(column: CoercionColumn, raw: unknown): unknown {
  let coerce = compiled.get(column);
  if (!coerce) {
    coerce = compile(column);
    compiled.set(column, coerce);
  }
  return coerce(raw);
}

const compiled = new WeakMap<CoercionColumn, (raw: unknown) => unknown>();

function compile(column: CoercionColumn): (raw: unknown) => unknown {
  const rule = valueRuleOf(column.uidt);
  const coerce = (COERCERS[rule] ?? perValue(coerceByDt))(column);
  // Text columns keep '' as a value; for every other type '' means "no value".
  const emptyIsNull = rule !== 'text';
  return (raw) => {
    if (raw === null || raw === undefined) return null;
    if (raw === '' && emptyIsNull) return null;
    return coerce(raw);
  };
}

/** Unknown uidts (external tables): trust primitives, refuse structures. */
function coerceByDt(column: CoercionColumn, raw: unknown): unknown {
  if (typeof raw === 'object') return toJson(column, raw);
  return raw;
}
