import { describeWithBackend } from '@tabula/testing';
import { operatorSuite } from './fixtures/operator-suite';
import { mysqlTestDb } from './fixtures/test-dbs';

describeWithBackend('mysql', 'operators on MariaDB/MySQL', () => {
  operatorSuite('mysql2', mysqlTestDb);
});
