import { QueryError } from '../query-error';
import type { RawCondition, RawGroup } from './filter.types';
import { parseWhereSyntax } from './where.parser';

function only(where: string): RawCondition {
  const tree = parseWhereSyntax(where);
  expect(tree.children).toHaveLength(1);
  return tree.children[0] as RawCondition;
}

function expect422(fn: () => unknown): QueryError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(QueryError);
    expect((error as QueryError).status).toBe(422);
    expect((error as QueryError).code).toBe('ERR_INVALID_FILTER');
    return error as QueryError;
  }
  throw new Error('expected a QueryError');
}

describe('parseWhereSyntax', () => {
  it('parses a single condition', () => {
    expect(only('(Title,eq,hello)')).toMatchObject({ field: 'Title', op: 'eq', value: 'hello', logicalOp: 'and' });
  });

  it('returns an empty group for an empty or blank string', () => {
    expect(parseWhereSyntax('').children).toEqual([]);
    expect(parseWhereSyntax('   ').children).toEqual([]);
  });

  it('keeps commas in the value', () => {
    expect(only('(Title,eq,a,b,c)').value).toBe('a,b,c');
    expect(only('(Title,in,1, 2 ,3)').value).toBe('1, 2 ,3');
  });

  it('keeps balanced parentheses in the value', () => {
    expect(only('(Title,eq,f(x, y))').value).toBe('f(x, y)');
    expect(only('(Title,eq,((nested)))').value).toBe('((nested))');
  });

  it('keeps unbalanced parentheses in the value when the rest still parses', () => {
    expect(only('(Title,eq,:-))').value).toBe(':-)');
    expect(only('(Title,eq,(note)').value).toBe('(note');
    expect(only('(Title,eq,a)b)').value).toBe('a)b');
    const tree = parseWhereSyntax('(Title,eq,a(b)~and(Num,eq,1)');
    expect(tree.children.map((c) => (c as RawCondition).value)).toEqual(['a(b', '1']);
  });

  it('reads text up to the last possible closing parenthesis into the value, as NocoDB does', () => {
    expect(only('(a,eq,1)(b,eq,2)').value).toBe('1)(b,eq,2');
    expect(only('(a,eq,1)~xor(b,eq,2)').value).toBe('1)~xor(b,eq,2');
  });

  it('prefers the balanced reading when the value could end at either parenthesis', () => {
    const tree = parseWhereSyntax('((Title,eq,x)~or(Num,eq,2))~and(Num,gt,3)');
    const group = tree.children[0] as RawGroup;
    expect((group.children[0] as RawCondition).value).toBe('x');
    expect(tree.children[1]).toMatchObject({ logicalOp: 'and', op: 'gt', value: '3' });
  });

  it('parses an empty value and a missing value', () => {
    expect(only('(Title,eq,)').value).toBe('');
    expect(only('(Title,blank)').value).toBeUndefined();
    expect(only('(Title , notblank )')).toMatchObject({ field: 'Title', op: 'notblank' });
  });

  it('tolerates whitespace around tokens', () => {
    const tree = parseWhereSyntax('  ( Title , eq ,  hello world ) ~and ( Num,gt,3 )  ~or(Num , lt , 1)');
    expect(tree.children).toMatchObject([
      { field: 'Title', op: 'eq', value: 'hello world', logicalOp: 'and' },
      { field: 'Num', op: 'gt', value: '3', logicalOp: 'and' },
      { field: 'Num', op: 'lt', value: '1', logicalOp: 'or' },
    ]);
  });

  it('parses ~and, ~or and ~not (leading and between terms), case-insensitively', () => {
    const tree = parseWhereSyntax('~not(a,eq,1)~OR(b,eq,2)~Not(c,eq,3)~and(d,eq,4)');
    expect(tree.children.map((c) => c.logicalOp)).toEqual(['not', 'or', 'not', 'and']);
  });

  it('parses nested groups', () => {
    const tree = parseWhereSyntax('((a,eq,1)~or(b,eq,2))~and(c,gt,3)');
    expect(tree.children[0]).toMatchObject({
      type: 'group',
      children: [{ field: 'a' }, { field: 'b', logicalOp: 'or' }],
    });
    expect(tree.children[1]).toMatchObject({ field: 'c', op: 'gt', value: '3', logicalOp: 'and' });
  });

  it('parses a group opening with ~not', () => {
    const tree = parseWhereSyntax('(~not(a,eq,1)~or(b,eq,2))');
    expect((tree.children[0] as RawGroup).children.map((c) => c.logicalOp)).toEqual(['not', 'or']);
  });

  it('keeps the date sub-operator in the value for the resolver', () => {
    expect(only('(Due,eq,exactDate,2024-01-31)').value).toBe('exactDate,2024-01-31');
    expect(only('(Due,isWithin,pastNumberOfDays,7)').value).toBe('pastNumberOfDays,7');
  });

  it('parses an injection attempt as a plain value', () => {
    expect(only("(title,eq,x' or '1'='1)").value).toBe("x' or '1'='1");
    expect(only('(Title,eq,1);drop table t;--)').value).toBe('1);drop table t;--');
  });

  it.each([
    ['unbalanced open', '((Title,eq,1)'],
    ['unbalanced close', '(Title,blank))'],
    ['unbalanced close after a group', '((Title,blank)))~and(Num,eq,1)'],
    ['no parentheses', 'Title,eq,1'],
    ['missing comma', '(Title)'],
    ['missing operator', '(Title,,1)'],
    ['bad operator characters', '(Title,e-q,1)'],
    ['missing connector', '((a,blank))(b,eq,2)'],
    ['unknown connector', '((a,blank))~xor(b,eq,2)'],
    ['unknown leading connector', '~xor(b,eq,2)'],
    ['empty group', '()'],
    ['trailing garbage', '(a,eq,1) x'],
    ['dangling connector', '(a,eq,1)~and'],
    ['unterminated', '(Title,eq,abc'],
  ])('answers 422 for %s', (_name, where) => {
    expect422(() => parseWhereSyntax(where));
  });

  it('accepts 50 nested groups and refuses 51', () => {
    const nest = (n: number) => '('.repeat(n) + '(a,eq,1)' + ')'.repeat(n);
    expect(() => parseWhereSyntax(nest(50))).not.toThrow();
    expect422(() => parseWhereSyntax(nest(51)));
  });

  it('answers 1000-deep nesting with 422, never a RangeError (its time: npm run bench:where)', () => {
    const error = expect422(() => parseWhereSyntax('('.repeat(1000) + '(a,eq,1)' + ')'.repeat(1000)));
    expect(error.message).toMatch(/nested/);
  });

  it('refuses a where longer than 10,000 characters', () => {
    expect(() => parseWhereSyntax(`(Title,eq,${'x'.repeat(9_000)})`)).not.toThrow();
    expect422(() => parseWhereSyntax(`(Title,eq,${'x'.repeat(10_000)})`));
  });

  // Pathological parentheses are parsed or refused correctly; how long they take (a guard against runaway
  // backtracking) is measured by scripts/bench/where-parser.bench.ts (npm run bench:where), not asserted here.
  it('parses or refuses pathological parentheses', () => {
    expect422(() => parseWhereSyntax(`(a,eq,${') '.repeat(4_990)}x`));
    expect422(() => parseWhereSyntax(`${'('.repeat(50)}(a,eq,${')'.repeat(9_000)}x`));
    expect(parseWhereSyntax(`${'(a,eq,()~and'.repeat(800)}(a,eq,1)`).children).toHaveLength(801);
    expect(parseWhereSyntax(`(a,eq,1)${'~and     \n (a,eq,(x'.repeat(500)})`).children.length).toBeGreaterThan(1);
  });
});
