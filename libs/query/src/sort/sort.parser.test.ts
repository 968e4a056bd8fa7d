import knex from 'knex';
import { COLUMNS } from '../../test/fixtures/columns';
import { QueryError } from '../query-error';
import { applySort } from './sort.compiler';
import { parseSort, parseSortArrJson, sortsFromRows } from './sort.parser';

function error(fn: () => unknown): QueryError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(QueryError);
    return e as QueryError;
  }
  throw new Error('expected a QueryError');
}

const brief = (items: { column: { title: string }; direction: string }[]) => items.map((s) => [s.column.title, s.direction]);

describe('parseSort', () => {
  it('reads -, +, ~- and ~+ prefixes, titles, ids and whitespace', () => {
    expect(brief(parseSort('Title, -Num,+cprice00000000001,~-Links,~+Links', COLUMNS))).toEqual([
      ['Title', 'asc'], ['Num', 'desc'], ['Price', 'asc'], ['Links', 'count-desc'], ['Links', 'count-asc'],
    ]);
    expect(parseSort(undefined, COLUMNS)).toEqual([]);
    expect(parseSort(' , ', COLUMNS)).toEqual([]);
    expect(brief(parseSort(['Title', '-Num'], COLUMNS))).toEqual([['Title', 'asc'], ['Num', 'desc']]);
  });

  it('sorts link columns by their count', () => {
    expect(brief(parseSort('-Links', COLUMNS))).toEqual([['Links', 'count-desc']]);
  });

  it('answers 404 ERR_FIELD_NOT_FOUND naming every unknown field', () => {
    const e = error(() => parseSort('-id,(select 1)', COLUMNS));
    expect([e.status, e.code]).toEqual([404, 'ERR_FIELD_NOT_FOUND']);
    expect(e.message).toBe("Field '(select 1)' not found");
    expect(error(() => parseSort('a,-b', COLUMNS)).message).toBe("Fields 'a', 'b' not found");
  });

  it('answers 422 for count sorts on other columns and for unsortable columns', () => {
    expect(error(() => parseSort('~-Title', COLUMNS)).status).toBe(422);
    expect(error(() => parseSort('Lookup', COLUMNS)).status).toBe(422);
  });
});

describe('parseSortArrJson', () => {
  it('accepts both key styles', () => {
    const json = JSON.stringify([{ field: 'Num', direction: 'desc' }, { fk_column_id: 'ctitle00000000001' }, { field: 'Links', direction: 'COUNT-ASC' }]);
    expect(brief(parseSortArrJson(json, COLUMNS))).toEqual([['Num', 'desc'], ['Title', 'asc'], ['Links', 'count-asc']]);
  });

  it('answers 400 for malformed JSON and items, 404 for unknown fields', () => {
    for (const json of ['[', '{}', '[{"direction":"asc"}]', '[{"field":"Num","direction":"up"}]', '[1]']) {
      expect(error(() => parseSortArrJson(json, COLUMNS)).status).toBe(400);
    }
    expect(error(() => parseSortArrJson('[{"field":"nope"}]', COLUMNS)).status).toBe(404);
  });
});

describe('sortsFromRows', () => {
  it('orders by order and skips deleted columns', () => {
    const rows = [
      { fk_column_id: 'cnum0000000000001', direction: 'desc', order: 2 },
      { fk_column_id: 'cgone', direction: 'asc', order: 0 },
      { fk_column_id: 'ctitle00000000001', direction: 'asc', order: 1 },
    ];
    expect(brief(sortsFromRows(rows, COLUMNS))).toEqual([['Title', 'asc'], ['Num', 'desc']]);
  });
});

describe('applySort', () => {
  const pg = knex({ client: 'pg' });
  const mysql = knex({ client: 'mysql2' });
  afterAll(async () => {
    await pg.destroy();
    await mysql.destroy();
  });

  it('puts NULLs first ascending and last descending', () => {
    const sorts = parseSort('Title,-Num', COLUMNS);
    expect(applySort(pg('t'), sorts, 'pg').toSQL().sql).toBe('select * from "t" order by "title" ASC NULLS FIRST, "num" DESC NULLS LAST');
    expect(applySort(mysql('t'), sorts, 'mysql2').toSQL().sql).toBe('select * from `t` order by `title` ASC, `num` DESC');
  });

  it('orders by a link count subquery given by the caller, and refuses without one', () => {
    const sorts = parseSort('~-Links', COLUMNS);
    const linkCount = () => pg('links').count('*').whereRaw('?? = ??', ['links.t_id', 't.id']);
    expect(applySort(pg('t'), sorts, 'pg', { linkCount }).toSQL().sql).toBe(
      'select * from "t" order by (select count(*) from "links" where "links"."t_id" = "t"."id") DESC',
    );
    expect(error(() => applySort(pg('t'), sorts, 'pg')).status).toBe(422);
  });

  it('qualifies columns with a table alias', () => {
    expect(applySort(pg('t as x'), parseSort('Num', COLUMNS), 'pg', { tableAlias: 'x' }).toSQL().sql).toBe(
      'select * from "t" as "x" order by "x"."num" ASC NULLS FIRST',
    );
  });
});
