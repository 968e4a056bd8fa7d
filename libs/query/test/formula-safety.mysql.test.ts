import { describeWithBackend } from '@tabula/testing';
import { formulaSafetySuite } from './fixtures/formula-safety-suite';
import { mysqlTestDb } from './fixtures/test-dbs';

describeWithBackend('mysql', 'formula safety on MariaDB/MySQL (audit findings 4 and 5)', () => {
  formulaSafetySuite('mysql2', mysqlTestDb);
});
