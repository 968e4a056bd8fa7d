import { readFileSync } from 'node:fs';
import { z } from 'zod';

/** Thrown when the environment does not satisfy a config schema; lists every problem at once. */
export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Resolves `<NAME>_FILE` indirections (Kubernetes/Docker secrets): when `NAME`
 * is unset and `NAME_FILE` names a readable file, its trimmed content becomes `NAME`.
 */
export function resolveFileSecrets(env: NodeJS.ProcessEnv, names?: string[]): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = { ...env };
  const problems: string[] = [];
  for (const [key, file] of Object.entries(env)) {
    if (!key.endsWith('_FILE') || !file) continue;
    const name = key.slice(0, -'_FILE'.length);
    // Only settings the schema knows: other tools' *_FILE variables are not ours.
    if (names && !names.includes(name)) continue;
    if (out[name] !== undefined && out[name] !== '') continue;
    try {
      out[name] = readFileSync(file, 'utf8').trim();
    } catch (err) {
      problems.push(`${key}: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  if (problems.length) throw new ConfigError(problems);
  return out;
}

/**
 * Parses the environment against a zod object schema once, at process start.
 * Empty strings count as unset. Fails fast with every problem listed.
 */
export function loadConfig<T extends z.ZodTypeAny>(schema: T, env: NodeJS.ProcessEnv = process.env): z.infer<T> {
  const shape = (schema as unknown as { shape?: Record<string, unknown> }).shape;
  const resolved = resolveFileSecrets(env, shape ? Object.keys(shape) : undefined);
  const cleaned = Object.fromEntries(Object.entries(resolved).filter(([, v]) => v !== undefined && v !== ''));
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    throw new ConfigError(result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`));
  }
  return result.data;
}
