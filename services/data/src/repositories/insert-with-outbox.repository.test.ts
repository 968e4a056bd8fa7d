import { jsonPieces } from './insert-with-outbox.repository';

describe('jsonPieces', () => {
  it('answers the array text in one piece per part, brackets and commas included', () => {
    expect(jsonPieces(['{"a":1},{"a":2}', '{"a":3}', '{"a":4}'])).toEqual(['[{"a":1},{"a":2}', ',{"a":3}', ',{"a":4}]']);
    expect(JSON.parse(jsonPieces(['{"a":1}', '{"a":2}']).join(''))).toEqual([{ a: 1 }, { a: 2 }]);
  });

  it('one part is one piece; no part is the empty array', () => {
    expect(jsonPieces(['{"a":1}'])).toEqual(['[{"a":1}]']);
    expect(jsonPieces([])).toEqual(['[]']);
  });
});
