import { operatorSuite } from './fixtures/operator-suite';
import { pgTestDb } from './fixtures/test-dbs';

describe('operators on PostgreSQL', () => {
  operatorSuite('pg', pgTestDb);
});
