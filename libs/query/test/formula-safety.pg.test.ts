import { formulaSafetySuite } from './fixtures/formula-safety-suite';
import { pgTestDb } from './fixtures/test-dbs';

describe('formula safety on PostgreSQL (audit findings 4 and 5)', () => {
  formulaSafetySuite('pg', pgTestDb);
});
