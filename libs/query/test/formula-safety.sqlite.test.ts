import { formulaSafetySuite } from './fixtures/formula-safety-suite';
import { sqliteTestDb } from './fixtures/test-dbs';

describe('formula safety on SQLite (audit findings 4 and 5)', () => {
  formulaSafetySuite('sqlite3', sqliteTestDb);
});
