import { COLUMNS } from '../../test/fixtures/columns';
import { QueryError } from '../query-error';
import type { FilterCondition } from './filter.types';
import { andFilters, parseWhere } from './filter.resolver';

function one(where: string): FilterCondition {
  const ast = parseWhere(where, COLUMNS);
  expect(ast.children).toHaveLength(1);
  return ast.children[0] as FilterCondition;
}

function rejects(where: string, pattern?: RegExp): void {
  let caught: unknown;
  try {
    parseWhere(where, COLUMNS);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(QueryError);
  expect((caught as QueryError).status).toBe(422);
  expect((caught as QueryError).code).toBe('ERR_INVALID_FILTER');
  if (pattern) expect((caught as QueryError).message).toMatch(pattern);
}

describe('parseWhere: columns and operators', () => {
  it('finds columns by title, id, column_name and case-insensitive title', () => {
    expect(one('(Title,eq,x)').columnId).toBe('ctitle00000000001');
    expect(one('(cnum0000000000001,eq,1)').columnId).toBe('cnum0000000000001');
    expect(one('(other_col,eq,x)').columnId).toBe('cother00000000001');
    expect(one('(OTHER NAME,eq,x)').columnId).toBe('cother00000000001');
    expect(one('(title,eq,x)').columnId).toBe('ctitle00000000001');
  });

  it('answers 422 naming an unknown column or operator', () => {
    rejects('(Nope,eq,1)', /Column 'Nope' not found/);
    rejects('(Title,equals,1)', /Operator 'equals'/);
  });

  it.each([
    ['not', 'neq'], ['ge', 'gte'], ['le', 'lte'], ['empty', 'empty'], ['null', 'null'],
    ['notempty', 'notempty'], ['notnull', 'notnull'], ['EQ', 'eq'], ['iswithin', 'isWithin'],
  ])('maps the alias %s to %s', (alias, op) => {
    const where = op === 'isWithin' ? `(Due,${alias},pastWeek)` : `(Title,${alias},x)`;
    expect(one(where).op).toBe(op);
  });

  it('refuses operators that do not fit the column', () => {
    rejects('(Done,gt,1)', /not supported for column 'Done'/);
    rejects('(Num,anyof,1)');
    rejects('(Title,checked)');
    rejects('(Title,isWithin,pastWeek)');
    rejects('(Meta,gt,1)');
  });

  it('refuses virtual columns', () => {
    rejects('(Links,eq,1)', /Links/);
    rejects('(Lookup,eq,1)');
  });
});

describe('parseWhere: values', () => {
  it('coerces numbers and refuses non-numbers naming column and value', () => {
    expect(one('(Num,eq,42)').value).toBe(42);
    expect(one('(Price,gt,-1.5e2)').value).toBe(-150);
    rejects('(Num,eq,abc)', /Invalid value 'abc' for column 'Num'/);
    rejects('(Num,eq,1))', /'1\)'/);
    rejects('(Num,eq,0x10)');
    rejects('(Num,in,1,two)', /'two'/);
  });

  it('makes eq/neq with an empty value a NULL test and drops empty comparisons', () => {
    expect(one('(Title,eq,)').value).toBeNull();
    expect(one('(Num,eq)').value).toBeNull();
    expect(one('(Num,neq,)').value).toBeNull();
    expect(parseWhere('(Num,gt,)', COLUMNS).children).toEqual([]);
  });

  it('keeps text values verbatim (trimmed) and like values as text', () => {
    expect(one('(Title,eq, a, b )').value).toBe('a, b');
    expect(one('(Num,like,4)').value).toBe('4');
    expect(one('(Title,like,)').value).toBe('');
  });

  it('reads checkbox truthy and falsy strings', () => {
    expect(one('(Done,eq,true)').value).toBe(true);
    expect(one('(Done,eq,1)').value).toBe(true);
    expect(one('(Done,eq,checked)').value).toBe(true);
    expect(one('(Done,eq,false)').value).toBe(false);
    expect(one('(Done,eq,0)').value).toBe(false);
    rejects('(Done,eq,maybe)', /Done/);
  });

  it('splits in/notin/anyof lists and trims the items', () => {
    expect(one('(Num,in,1, 2 ,3)').value).toEqual([1, 2, 3]);
    expect(one('(Title,notin,a, b)').value).toEqual(['a', 'b']);
    expect(one('(Tags,anyof,a,,b)').value).toEqual(['a', 'b']);
  });

  it('caps lists at 1000 values', () => {
    const list = (n: number) => Array.from({ length: n }, (_, i) => i).join(',');
    expect((one(`(Num,in,${list(1000)})`).value as number[]).length).toBe(1000);
    rejects(`(Num,in,${list(1001)})`, /at most 1000/);
    rejects(`(Tags,anyof,${'a,'.repeat(4_000)}a)`, /at most 1000/);
  });

  it('answers 422 for a 10,000-value list (over the length cap too) without throwing anything else', () => {
    rejects(`(Num,in,${'1,'.repeat(9_999)}1)`);
  });

  it('needs exactly two values for btw/nbtw', () => {
    expect(one('(Num,btw,1,5)').value).toEqual([1, 5]);
    expect(one('(Price,nbtw,1.5, 2)').value).toEqual([1.5, 2]);
    rejects('(Num,btw,1)', /two values/);
    rejects('(Num,btw,1,2,3)', /two values/);
    rejects('(Num,btw,1,)');
  });

  it('takes is/isnot arguments, true/false on checkboxes only', () => {
    expect(one('(Title,is,blank)').value).toBe('blank');
    expect(one('(Title,isnot,NotNull)').value).toBe('notnull');
    expect(one('(Title,is,empty)').value).toBe('blank');
    expect(one('(Done,is,true)').value).toBe('true');
    rejects('(Title,is,true)', /checkbox/);
    rejects('(Title,is,whatever)', /expected blank/);
  });

  it('validates time values', () => {
    expect(one('(Starts,gt,09:30)').value).toBe('09:30:00');
    expect(one('(Starts,gt,9:05:01.5)').value).toBe('09:05:01.5');
    rejects('(Starts,gt,25:00)');
    rejects('(Starts,gt,late)');
  });
});

describe('parseWhere: dates', () => {
  it('reads the sub-operator leading the value', () => {
    expect(one('(Due,eq,exactDate,2024-01-31)')).toMatchObject({ subOp: 'exactDate', value: '2024-01-31' });
    expect(one('(Due,eq,today)')).toMatchObject({ subOp: 'today', value: null });
    expect(one('(Due,gt,daysAgo,3)')).toMatchObject({ subOp: 'daysAgo', value: 3 });
    expect(one('(Due,lt,DAYSFROMNOW, 2)')).toMatchObject({ subOp: 'daysFromNow', value: 2 });
    expect(one('(Due,isWithin,pastNumberOfDays,7)')).toMatchObject({ subOp: 'pastNumberOfDays', value: 7 });
    expect(one('(Due,isWithin,nextMonth)')).toMatchObject({ subOp: 'nextMonth' });
  });

  it('takes a bare date as exactDate and normalises date-times to UTC', () => {
    expect(one('(Due,eq,2024-01-31)')).toMatchObject({ subOp: 'exactDate', value: '2024-01-31' });
    expect(one('(At,gt,exactDate,2024-01-31T10:00:00+02:00)').value).toBe('2024-01-31 08:00:00');
    expect(one('(At,gt,2024-01-31 23:30:00-01:00)').value).toBe('2024-02-01 00:30:00');
  });

  it('validates dates and day counts', () => {
    rejects('(Due,eq,exactDate,2024-02-30)', /Due/);
    rejects('(Due,eq,exactDate,yesterday)');
    rejects('(Due,eq,someday)', /sub-operator 'someday'/);
    rejects('(Due,gt,daysAgo,x)', /days/);
    rejects('(Due,gt,daysAgo,1e9)');
    rejects('(Due,isWithin,today)', /sub-operator/);
    rejects('(Due,isWithin)');
    rejects('(Due,eq,pastWeek)');
    rejects('(Due,in,2024-01-01,nope)');
  });

  it('drops a sub-operator that is missing its value, as NocoDB does', () => {
    expect(parseWhere('(Due,eq,exactDate)', COLUMNS).children).toEqual([]);
    expect(parseWhere('(Due,gt,daysAgo,)', COLUMNS).children).toEqual([]);
    expect(parseWhere('(Due,isWithin,nextNumberOfDays)', COLUMNS).children).toEqual([]);
  });

  it('reads btw and in on dates as lists of dates', () => {
    expect(one('(Due,btw,2024-01-01,2024-02-01)').value).toEqual(['2024-01-01', '2024-02-01']);
    expect(one('(At,in,2024-01-01, 2024-01-02 10:00)').value).toEqual(['2024-01-01', '2024-01-02 10:00:00']);
  });
});

describe('andFilters', () => {
  it('ANDs non-empty filters as groups', () => {
    const a = parseWhere('(Num,eq,1)~or(Num,eq,2)', COLUMNS);
    const b = parseWhere('~not(Title,blank)', COLUMNS);
    const combined = andFilters(a, undefined, parseWhere('', COLUMNS), b);
    expect(combined.children).toHaveLength(2);
    expect(combined.children.every((c) => c.type === 'group' && c.logicalOp === 'and')).toBe(true);
  });
});
