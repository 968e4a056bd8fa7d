import { ConfigError, loadConfig } from '@tabula/config';
import type { ServiceDefinition } from './service-definition';
import { loadPlatformConfig, type PlatformConfig } from './platform-config';

function problemsOf(parse: () => unknown): string[] {
  try {
    parse();
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
}

/**
 * Validates the platform settings and the settings of every service this
 * process runs, before anything starts (no database, no port): one ConfigError
 * lists every problem of every setting at once.
 */
export function loadSettings(definitions: Array<Pick<ServiceDefinition<any, any>, 'configSchema'>>, env: NodeJS.ProcessEnv = process.env): PlatformConfig {
  const problems = problemsOf(() => loadPlatformConfig(env));
  for (const definition of definitions) {
    const schema = definition.configSchema;
    if (schema) problems.push(...problemsOf(() => loadConfig(schema, env)));
  }
  const unique = [...new Set(problems)];
  if (unique.length) throw new ConfigError(unique);
  return loadPlatformConfig(env);
}
