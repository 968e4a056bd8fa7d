import { operatorSuite } from './fixtures/operator-suite';
import { sqliteTestDb } from './fixtures/test-dbs';

describe('operators on SQLite', () => {
  operatorSuite('sqlite3', sqliteTestDb);
});
