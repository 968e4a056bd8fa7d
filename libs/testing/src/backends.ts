/**
 * Which real backends this test run can reach. CI sets DATABASE_URL, REDIS_URL,
 * MYSQL_URL and REQUIRE_BACKENDS=1; a developer's laptop may have none of them,
 * in which case PostgreSQL is embedded (global-setup) and Redis/MariaDB suites skip.
 */
export type Backend = 'redis' | 'mysql' | 'kafka';

const envName: Record<Backend, string> = { redis: 'REDIS_URL', mysql: 'MYSQL_URL', kafka: 'KAFKA_BROKERS' };

/** The connection string of a backend, or undefined when it is not configured. */
export function backendUrl(backend: Backend): string | undefined {
  const value = process.env[envName[backend]];
  return value && value.trim() !== '' ? value : undefined;
}

/** True when a missing backend must fail the run instead of skipping (CI). */
export function backendsRequired(): boolean {
  return process.env.REQUIRE_BACKENDS === '1' || process.env.REQUIRE_BACKENDS === 'true';
}

/**
 * `describe` for a suite that needs a backend. Configured: runs. Missing and
 * REQUIRE_BACKENDS=1: a failing test says what is missing. Missing otherwise:
 * the suite is skipped and the reason printed at the end of the run (skip reporter). Kafka is not required by
 * REQUIRE_BACKENDS (a developer runs `npm run kafka:start` when wanted); .ci/run starts a broker and sets
 * KAFKA_BROKERS, and fails its own step when the broker does not come up.
 */
export function describeWithBackend(backend: Backend, name: string, body: () => void): void {
  if (backendUrl(backend)) {
    describe(name, body);
    return;
  }
  if (backendsRequired() && backend !== 'kafka') {
    describe(name, () => {
      it(`needs ${envName[backend]}`, () => {
        throw new Error(`${envName[backend]} is required (REQUIRE_BACKENDS=1) but not set`);
      });
    });
    return;
  }
  // Jest prints nothing for a skipped file: the reason goes into the title, which
  // libs/testing/skip-reporter.cjs prints with the file at the end of the run.
  describe.skip(`${name} ${skipMarker(`${envName[backend]} is not set`)}`, body);
}

/** The title suffix the skip reporter looks for: `[skipped: <reason>]`. */
export function skipMarker(reason: string): string {
  return `[skipped: ${reason}]`;
}
