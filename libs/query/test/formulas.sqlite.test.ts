import { formulaSuite } from './fixtures/formula-suite';
import { sqliteTestDb } from './fixtures/test-dbs';

describe('formulas on SQLite', () => {
  formulaSuite('sqlite3', sqliteTestDb);
});
