import { COLUMNS } from '../../test/fixtures/columns';
import { QueryError } from '../query-error';
import { resolveFields } from './fields.resolver';

describe('resolveFields', () => {
  it('resolves titles and ids in order, without duplicates, primary key first', () => {
    const cols = resolveFields('Title, cnum0000000000001,Title', COLUMNS);
    expect(cols?.map((c) => c.title)).toEqual(['Id', 'Title', 'Num']);
    expect(resolveFields(['Num', 'Id'], COLUMNS)?.map((c) => c.title)).toEqual(['Num', 'Id']);
    expect(resolveFields('Num', COLUMNS, { includePrimaryKey: false })?.map((c) => c.title)).toEqual(['Num']);
  });

  it('means all columns when nothing is asked for', () => {
    expect(resolveFields(undefined, COLUMNS)).toBeUndefined();
    expect(resolveFields('', COLUMNS)).toBeUndefined();
    expect(resolveFields(' , ', COLUMNS)).toBeUndefined();
  });

  it('answers 404 ERR_FIELD_NOT_FOUND naming the unknown fields', () => {
    let caught: unknown;
    try {
      resolveFields('Title,nope,also nope', COLUMNS);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(QueryError);
    expect(caught).toMatchObject({ status: 404, code: 'ERR_FIELD_NOT_FOUND', message: "Fields 'nope', 'also nope' not found" });
  });
});
