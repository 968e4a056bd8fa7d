// Mutation testing of the modules that carry the README's guarantees (npm run test:mutation).
// One module at a time: MUTATION_MODULE=<name> npm run test:mutation (all modules when unset).
// Needs the real backends like the tests (DATABASE_URL, REDIS_URL, MYSQL_URL); not part of npm test.
// Modules are small (a file or two with the tests that drive it) so one run takes minutes on a shared 2-core machine;
// MUTATION_MODULE=events-relay,events-repository is the whole outbox, and so on.
const modules = {
  'events-relay': {
    mutate: ['libs/events/src/outbox/outbox-relay.ts', 'libs/events/src/outbox/with-outbox.ts', 'libs/events/src/outbox/enqueue-event.ts'],
    tests: ['libs/events/test/outbox-relay.test.ts', 'libs/events/test/outbox.test.ts'],
  },
  // the repository's statements driven directly (outbox-repository.test.ts): a broken claim or mark fails a test at
  // once, where through the relay's tests most mutants made its drain loop until the time limit (20 s each)
  'events-repository': {
    mutate: ['libs/events/src/outbox/outbox.repository.ts'],
    tests: ['libs/events/test/outbox-repository.test.ts'],
  },
  data: {
    mutate: ['services/data/src/domain/write-runner.ts', 'services/data/src/domain/insert-records.ts'],
    tests: ['services/data/test/bulk.test.ts', 'services/data/test/records.test.ts', 'services/data/test/before-events.test.ts', 'services/data/test/write-guarantees.test.ts'],
  },
  // the transaction of runWrite alone (a write and its outbox event in one transaction on default sources, after the
  // commit on external ones): the part of `data` that a loaded machine can run in minutes
  'data-transaction': {
    mutate: ['services/data/src/domain/write-runner.ts:26-59'],
    tests: ['services/data/test/write-guarantees.test.ts', 'services/data/test/records.test.ts', 'services/data/test/before-events.test.ts'],
  },
  // the whole write runner (the transaction above, the one-statement path, row deltas, what runs after the commit),
  // driven directly by write-runner.test.ts: nothing written in its beforeAll, so each mutant runs only the tests that
  // reach it (the HTTP suites seed through the service in beforeAll: every mutant "static", ~23 s each)
  'data-write-runner': {
    mutate: ['services/data/src/domain/write-runner.ts'],
    tests: ['services/data/test/write-runner.test.ts'],
  },
  // the insert path on its own (insert-records.ts), driven directly by insert-records.test.ts on default pg (one
  // statement and transaction), external pg, SQLite and MariaDB, nothing inserted in its beforeAll
  'data-insert': {
    mutate: ['services/data/src/domain/insert-records.ts'],
    tests: ['services/data/test/insert-records.test.ts'],
  },
  'storage-links': {
    mutate: ['services/storage/src/domain/link-signer.ts'],
    tests: ['services/storage/src/domain/storage-pure.test.ts'],
  },
  'storage-object': {
    mutate: ['services/storage/src/domain/store-object.ts'],
    // the streaming limit, the stored object and its failures driven on the real local store (e2e/storage-upload.test.ts
    // starts a whole stack per mutant: hours on this machine)
    tests: ['services/storage/test/store-object.test.ts'],
  },
  'hooks-signature': {
    mutate: ['services/hooks/src/domain/hook-signature.ts'],
    tests: ['services/hooks/src/domain/hook-signature.test.ts'],
  },
  'hooks-deliveries': {
    mutate: ['services/hooks/src/repositories/delivery.repository.ts'],
    // ingestion, claims, completions and the event-id dedupe on the test database, and the redelivery of an
    // already-ingested event after a kill between the ingest commit and the ack (e2e/hooks-delivery.test.ts starts a
    // whole stack per mutant: hours on this machine)
    tests: ['services/hooks/test/ingest-batch.test.ts', 'services/hooks/test/ingest-redelivery.test.ts', 'services/hooks/test/delivery-repository.test.ts'],
  },
  // the repository's statements driven directly (delivery-repository.test.ts: no sink waits, seconds per mutant)
  'hooks-deliveries-repository': {
    mutate: ['services/hooks/src/repositories/delivery.repository.ts'],
    tests: ['services/hooks/test/delivery-repository.test.ts'],
  },
  secrets: {
    // the ring every service seals with (at-rest-keys.ts) and the former formats it still opens (secrets.ts)
    mutate: ['libs/runtime/src/at-rest-keys.ts', 'libs/runtime/src/secrets.ts'],
    tests: ['libs/runtime/src/secrets.test.ts', 'libs/runtime/src/at-rest-keys.test.ts', 'libs/runtime/test/reseal.test.ts'],
  },
  comments: {
    mutate: ['services/comments/src/domain/comments/comment-access.ts'],
    // the scopes, author rule and admin roles driven directly on the comments harness (the e2e suites start a whole
    // stack per mutant: hours on this machine)
    tests: ['services/comments/test/comment-access.test.ts'],
  },
  guard: {
    mutate: ['libs/http/src/access-guard.ts', 'libs/auth/src/contract-authorizer.ts'],
    tests: ['libs/http/test/access-guard.test.ts', 'libs/auth/test/contract-authorizer.test.ts'],
  },
};

if (!process.env.DATABASE_URL) throw new Error('test:mutation needs DATABASE_URL (and REDIS_URL, MYSQL_URL) like CI');

const picked = process.env.MUTATION_MODULE ? process.env.MUTATION_MODULE.split(',') : Object.keys(modules);
for (const name of picked) if (!modules[name]) throw new Error(`MUTATION_MODULE: unknown module '${name}' (${Object.keys(modules).join(', ')})`);
const mutate = picked.flatMap((name) => modules[name].mutate);
const tests = picked.flatMap((name) => modules[name].tests);

const base = (await import('./jest.config.js')).default;

export default {
  packageManager: 'npm',
  testRunner: 'jest',
  plugins: ['@stryker-mutator/jest-runner'],
  mutate,
  jest: {
    projectType: 'custom',
    enableFindRelatedTests: false,
    // no global setup: it rebuilds every process bundle per run (the modules' tests here run in-process) and
    // DATABASE_URL is required instead of an embedded PostgreSQL
    // roots: only the sources (not dist/, node_modules or other sandboxes): jest's file crawl is most of a run's cost
    config: {
      ...base, testMatch: tests.map((t) => `<rootDir>/${t}`), reporters: ['default'], globalSetup: null, globalTeardown: null,
      roots: ['<rootDir>/libs', '<rootDir>/services', '<rootDir>/e2e', '<rootDir>/scripts'],
    },
  },
  coverageAnalysis: 'perTest',
  concurrency: Number(process.env.MUTATION_CONCURRENCY ?? 1),
  // a mutant that loops (the relay's drain) is cut off after this much beyond the tests' own time (MUTATION_TIMEOUT_MS:
  // raise it on a loaded machine, where a slow Jest start would otherwise count as a timeout)
  timeoutMS: Number(process.env.MUTATION_TIMEOUT_MS ?? 10000),
  checkers: [],
  ignorePatterns: ['dist', '.nx', 'reports', 'coverage', '*.log'],
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: `reports/mutation/${picked.join('+')}.json` },
  htmlReporter: { fileName: `reports/mutation/${picked.join('+')}.html` },
  thresholds: { high: 90, low: 80, break: null },
  tempDirName: '.stryker-tmp',
};
