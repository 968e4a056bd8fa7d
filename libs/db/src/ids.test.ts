import { newId } from './ids';

describe('ids', () => {
  it('ids are prefix + 14 [0-9a-z]', () => {
    for (let i = 0; i < 200; i += 1) expect(newId('vw')).toMatch(/^vw[0-9a-z]{14}$/);
  });
});
