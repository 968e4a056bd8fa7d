import knex, { type Knex } from 'knex';
import { COLUMNS, NOW } from '../../test/fixtures/columns';
import type { Dialect } from '../column/column.types';
import type { FilterGroup } from '../filter/filter.types';
import { parseWhere } from '../filter/filter.resolver';
import { QueryError } from '../query-error';
import { applyFilter, compileFilter } from './filter.compiler';

const clients: Record<Dialect, Knex> = {
  pg: knex({ client: 'pg' }),
  mysql2: knex({ client: 'mysql2' }),
  sqlite3: knex({ client: 'sqlite3', useNullAsDefault: true }),
};

afterAll(async () => {
  await Promise.all(Object.values(clients).map((k) => k.destroy()));
});

function where(text: string, dialect: Dialect = 'pg'): { sql: string; bindings: readonly unknown[] } {
  const ast = parseWhere(text, COLUMNS);
  const { sql, bindings } = applyFilter(clients[dialect]('t'), ast, COLUMNS, dialect, { now: NOW }).toSQL();
  return { sql: sql.replace(/^select \* from [`"]t[`"] where /, ''), bindings };
}

describe('applyFilter: comparison operators (pg)', () => {
  it.each([
    ['(Title,eq,x)', '(("title" = ?))', ['x']],
    ['(Title,eq,)', '(("title" IS NULL OR "title" = ?))', ['']],
    ['(Num,eq,)', '(("num" IS NULL))', []],
    ['(Title,neq,x)', '((NOT ("title" = ?) OR "title" IS NULL))', ['x']],
    ['(Title,not,)', '((NOT ("title" IS NULL OR "title" = ?)))', ['']],
    ['(Num,gt,1)', '(("num" > ?))', [1]],
    ['(Num,ge,1)', '(("num" >= ?))', [1]],
    ['(Num,lt,1)', '(("num" < ?))', [1]],
    ['(Num,le,1)', '(("num" <= ?))', [1]],
    ['(Num,in,1,2)', '(("num" IN (?, ?)))', [1, 2]],
    ['(Num,notin,1,2)', '((NOT ("num" IN (?, ?)) OR "num" IS NULL))', [1, 2]],
    ['(Num,btw,1,2)', '(("num" BETWEEN ? AND ?))', [1, 2]],
    ['(Num,nbtw,1,2)', '(("num" NOT BETWEEN ? AND ?))', [1, 2]],
    ['(Num,blank)', '(("num" IS NULL))', []],
    ['(Title,blank)', '(("title" IS NULL OR "title" = ?))', ['']],
    ['(Title,notblank)', '((NOT ("title" IS NULL OR "title" = ?)))', ['']],
    ['(Meta,blank)', '(("meta" IS NULL OR CAST("meta" AS TEXT) IN (?, ?, ?, ?)))', ['', '[]', '{}', 'null']],
    ['(Num,is,null)', '(("num" IS NULL))', []],
    ['(Num,isnot,null)', '(("num" IS NOT NULL))', []],
    ['(Num,is,notnull)', '(("num" IS NOT NULL))', []],
    ['(Title,is,blank)', '(("title" IS NULL OR "title" = ?))', ['']],
    ['(Title,isnot,blank)', '((NOT ("title" IS NULL OR "title" = ?)))', ['']],
    ['(Done,is,true)', '(("done" = ?))', [true]],
    ['(Done,isnot,true)', '(("done" IS NULL OR "done" = ?))', [false]],
    ['(Done,checked)', '(("done" = ?))', [true]],
    ['(Done,notchecked)', '(("done" IS NULL OR "done" = ?))', [false]],
    ['(Done,eq,true)', '(("done" = ?))', [true]],
    ['(Done,eq,false)', '(("done" IS NULL OR "done" = ?))', [false]],
    ['(Done,neq,true)', '(("done" IS NULL OR "done" = ?))', [false]],
    ['(Meta,eq,{})', '((CAST("meta" AS TEXT) = ?))', ['{}']],
  ])('%s', (text, sql, bindings) => {
    expect(where(text)).toEqual({ sql, bindings });
  });
});

describe('applyFilter: like', () => {
  it('wraps in %…% unless the value has %, escapes _ and !, case-insensitive per dialect', () => {
    expect(where('(Title,like,a_b!)')).toEqual({ sql: '((CAST("title" AS TEXT) ILIKE ? ESCAPE ?))', bindings: ['%a!_b!!%', '!'] });
    expect(where('(Title,like,100%)').bindings).toEqual(['100%', '!']);
    expect(where('(Title,like,x)', 'mysql2').sql).toBe('((LOWER(`title`) LIKE LOWER(?) ESCAPE ?))');
    expect(where('(Title,like,x)', 'sqlite3').sql).toBe('((LOWER(`title`) LIKE LOWER(?) ESCAPE ?))');
  });

  it('treats an empty like as not null and an empty nlike as null', () => {
    expect(where('(Title,like,)').sql).toBe('(("title" IS NOT NULL))');
    expect(where('(Title,nlike,)').sql).toBe('(("title" IS NULL))');
  });

  it('lets nlike match NULL rows', () => {
    expect(where('(Title,nlike,x)').sql).toBe('((NOT (CAST("title" AS TEXT) ILIKE ? ESCAPE ?) OR "title" IS NULL))');
  });
});

describe('applyFilter: MultiSelect membership', () => {
  it('tests each option between commas', () => {
    const { sql, bindings } = where('(Tags,anyof,a,b)');
    expect(sql).toBe(
      '(((CAST((? || CAST("tags" AS TEXT) || ?) AS TEXT) ILIKE ? ESCAPE ?) OR (CAST((? || CAST("tags" AS TEXT) || ?) AS TEXT) ILIKE ? ESCAPE ?)))',
    );
    expect(bindings).toEqual([',', ',', '%,a,%', '!', ',', ',', '%,b,%', '!']);
    expect(where('(Tags,allof,a,b)').sql).toContain(') AND (');
    expect(where('(Tags,nanyof,a)').sql).toMatch(/^\(\(NOT \(.*\) OR "tags" IS NULL\)\)$/);
    expect(where('(Tags,nallof,a_%)').bindings).toContain('%,a!_!%,%');
    expect(where('(Tags,anyof,a)', 'mysql2').sql).toBe('(((LOWER(CONCAT(?, `tags`, ?)) LIKE LOWER(?) ESCAPE ?)))');
  });

  it('ignores an empty list', () => {
    expect(where('(Tags,anyof,)').sql).toBe('select * from "t"');
  });
});

describe('applyFilter: dates (now = 2024-06-15 12:00 UTC)', () => {
  it.each([
    ['(Due,eq,today)', '(("due" = ?))', ['2024-06-15']],
    ['(Due,eq,tomorrow)', '(("due" = ?))', ['2024-06-16']],
    ['(Due,eq,yesterday)', '(("due" = ?))', ['2024-06-14']],
    ['(Due,eq,oneWeekAgo)', '(("due" = ?))', ['2024-06-08']],
    ['(Due,eq,oneWeekFromNow)', '(("due" = ?))', ['2024-06-22']],
    ['(Due,eq,oneMonthAgo)', '(("due" = ?))', ['2024-05-15']],
    ['(Due,eq,oneMonthFromNow)', '(("due" = ?))', ['2024-07-15']],
    ['(Due,gt,daysAgo,3)', '(("due" > ?))', ['2024-06-12']],
    ['(Due,lte,daysFromNow,3)', '(("due" <= ?))', ['2024-06-18']],
    ['(Due,eq,exactDate,2024-01-31)', '(("due" = ?))', ['2024-01-31']],
    ['(Due,neq,today)', '((NOT ("due" = ?) OR "due" IS NULL))', ['2024-06-15']],
    ['(Due,eq,)', '(("due" IS NULL))', []],
    ['(Due,isWithin,pastWeek)', '(("due" BETWEEN ? AND ?))', ['2024-06-08', '2024-06-15']],
    ['(Due,isWithin,pastMonth)', '(("due" BETWEEN ? AND ?))', ['2024-05-15', '2024-06-15']],
    ['(Due,isWithin,pastYear)', '(("due" BETWEEN ? AND ?))', ['2023-06-15', '2024-06-15']],
    ['(Due,isWithin,nextWeek)', '(("due" BETWEEN ? AND ?))', ['2024-06-15', '2024-06-22']],
    ['(Due,isWithin,nextMonth)', '(("due" BETWEEN ? AND ?))', ['2024-06-15', '2024-07-15']],
    ['(Due,isWithin,nextYear)', '(("due" BETWEEN ? AND ?))', ['2024-06-15', '2025-06-15']],
    ['(Due,isWithin,pastNumberOfDays,7)', '(("due" BETWEEN ? AND ?))', ['2024-06-08', '2024-06-15']],
    ['(Due,isWithin,nextNumberOfDays,2)', '(("due" BETWEEN ? AND ?))', ['2024-06-15', '2024-06-17']],
    ['(Due,btw,2024-01-01,2024-02-01)', '(("due" BETWEEN ? AND ?))', ['2024-01-01', '2024-02-01']],
    ['(Due,in,2024-01-01)', '(("due" IN (?)))', ['2024-01-01']],
  ])('%s', (text, sql, bindings) => {
    expect(where(text)).toEqual({ sql, bindings });
  });

  it('compares DateTime by UTC day, eq meaning the whole day', () => {
    expect(where('(At,eq,today)')).toEqual({ sql: '((CAST(TIMEZONE(?, "at") AS DATE) = ?))', bindings: ['UTC', '2024-06-15'] });
    expect(where('(At,eq,today)', 'mysql2')).toEqual({ sql: '((DATE(`at`) = ?))', bindings: ['2024-06-15'] });
    expect(where('(At,eq,today)', 'sqlite3')).toEqual({ sql: '((date(`at`) = ?))', bindings: ['2024-06-15'] });
    expect(where('(At,eq,exactDate,2024-01-31 10:00)').bindings).toEqual(['UTC', '2024-01-31']);
  });

  it('compares DateTime to the second when the value carries a time', () => {
    expect(where('(At,gt,exactDate,2024-01-31 10:00)')).toEqual({ sql: '(("at" > ?))', bindings: ['2024-01-31 10:00:00+00:00'] });
    expect(where('(At,gt,2024-01-31 10:00)', 'mysql2').bindings).toEqual(['2024-01-31 10:00:00']);
    expect(where('(At,gt,2024-01-31 10:00)', 'sqlite3').sql).toBe('((datetime(`at`) > ?))');
    expect(where('(At,btw,2024-01-01,2024-01-02 12:00)').bindings).toEqual([
      '2024-01-01 00:00:00+00:00',
      '2024-01-02 12:00:00+00:00',
    ]);
  });

  it('uses CAST(... AS DATE) for a pg timestamp without time zone', () => {
    const cols = COLUMNS.map((c) => (c.title === 'At' ? { ...c, dt: 'timestamp' } : c));
    const ast = parseWhere('(At,eq,today)', cols);
    expect(compileFilter(ast, cols, 'pg', { now: NOW })?.sql).toBe('(CAST(?? AS DATE) = ?)');
  });
});

describe('applyFilter: logic and grouping', () => {
  it('joins with AND / OR / AND NOT and parenthesises everything', () => {
    expect(where('((Num,eq,1)~or(Num,eq,2))~and(Num,gt,3)').sql).toBe('((("num" = ?) OR ("num" = ?)) AND ("num" > ?))');
    expect(where('~not(Num,eq,1)~not(Num,eq,2)').sql).toBe('(NOT ("num" = ?) AND NOT ("num" = ?))');
  });

  it('keeps its own terms apart from earlier where clauses', () => {
    const ast = parseWhere('(Num,eq,1)~or(Num,eq,2)', COLUMNS);
    const qb = clients.pg('t').where('id', 5);
    expect(applyFilter(qb, ast, COLUMNS, 'pg').toSQL().sql).toBe(
      'select * from "t" where "id" = ? and (("num" = ?) OR ("num" = ?))',
    );
  });

  it('adds nothing for an empty filter', () => {
    expect(clients.pg('t').modify((qb) => applyFilter(qb, parseWhere('', COLUMNS), COLUMNS, 'pg')).toSQL().sql).toBe(
      'select * from "t"',
    );
  });

  it('qualifies columns with a table alias', () => {
    const ast = parseWhere('(Num,eq,1)', COLUMNS);
    expect(compileFilter(ast, COLUMNS, 'pg', { tableAlias: 'x' })?.bindings).toEqual(['x.num', 1]);
  });

  it('uses BINARY for case-sensitive text equality on MySQL', () => {
    expect(where('(Title,eq,x)', 'mysql2').sql).toBe('((BINARY `title` = ?))');
  });

  it('binds 1/0 for a checkbox stored as an integer', () => {
    const cols = COLUMNS.map((c) => (c.title === 'Done' ? { ...c, dt: 'tinyint' } : c));
    expect(compileFilter(parseWhere('(Done,checked)', cols), cols, 'mysql2')?.bindings).toEqual(['done', 1]);
  });
});

describe('compileFilter: hand-built ASTs are checked', () => {
  const cases: [string, FilterGroup][] = [
    ['unknown column', { type: 'group', logicalOp: 'and', children: [{ type: 'condition', logicalOp: 'and', columnId: 'nope', op: 'eq', value: 1 }] }],
    ['alias op', { type: 'group', logicalOp: 'and', children: [{ type: 'condition', logicalOp: 'and', columnId: 'cnum0000000000001', op: 'ge' as 'gte', value: 1 }] }],
    ['string on a number column', { type: 'group', logicalOp: 'and', children: [{ type: 'condition', logicalOp: 'and', columnId: 'cnum0000000000001', op: 'eq', value: 'x' }] }],
    ['bad date', { type: 'group', logicalOp: 'and', children: [{ type: 'condition', logicalOp: 'and', columnId: 'cdue0000000000001', op: 'eq', subOp: 'exactDate', value: 'x' }] }],
    ['bad day count', { type: 'group', logicalOp: 'and', children: [{ type: 'condition', logicalOp: 'and', columnId: 'cdue0000000000001', op: 'eq', subOp: 'daysAgo', value: 1e12 }] }],
  ];
  it.each(cases)('%s → 422', (_name, ast) => {
    expect(() => compileFilter(ast, COLUMNS, 'pg')).toThrow(QueryError);
  });
});
