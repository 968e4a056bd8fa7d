import { formulaSuite } from './fixtures/formula-suite';
import { pgTestDb } from './fixtures/test-dbs';

describe('formulas on PostgreSQL', () => {
  formulaSuite('pg', pgTestDb);
});
