import { describeWithBackend } from '@tabula/testing';
import { formulaSuite } from './fixtures/formula-suite';
import { mysqlTestDb } from './fixtures/test-dbs';

describeWithBackend('mysql', 'formulas on MariaDB/MySQL', () => {
  formulaSuite('mysql2', mysqlTestDb);
});
