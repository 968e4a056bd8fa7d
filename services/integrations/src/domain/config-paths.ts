/** The value at a dotted path of a JSON object (undefined when absent). */
export function pathValue(obj: Record<string, unknown>, dotted: string): unknown {
  let cur: unknown = obj;
  for (const part of dotted.split('.')) {
    if (!cur || typeof cur !== 'object' || Array.isArray(cur)) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/** Mask shown in place of a secret value. */
export const MASK = '********';

/** A deep copy of a config with every present secret path replaced by {@link MASK}. */
export function maskConfig(config: Record<string, unknown>, secretPaths: string[]): Record<string, unknown> {
  const copy = structuredClone(config);
  for (const dotted of secretPaths) {
    const parts = dotted.split('.');
    let cur: Record<string, unknown> | undefined = copy;
    for (const part of parts.slice(0, -1)) {
      const next: unknown = cur?.[part];
      cur = next && typeof next === 'object' && !Array.isArray(next) ? (next as Record<string, unknown>) : undefined;
    }
    const last = parts[parts.length - 1];
    if (cur && cur[last] !== undefined && cur[last] !== null && cur[last] !== '') cur[last] = MASK;
  }
  return copy;
}

/**
 * Merges a PATCH config into the stored one: objects merge key by key, other
 * values replace, `null` removes a key. A masked value sent back unchanged keeps
 * the stored secret (clients echo what they were shown).
 */
export function mergeConfig(stored: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...stored };
  for (const [key, value] of Object.entries(patch)) {
    if (key === '__proto__' || key === 'constructor' || key === 'prototype') continue;
    const prev = out[key];
    if (value === null) delete out[key];
    else if (value === MASK && prev !== undefined) continue;
    else if (isObject(value) && isObject(prev)) out[key] = mergeConfig(prev, value);
    else out[key] = value;
  }
  return out;
}

/**
 * Secret paths whose stored value a merge keeps without the patch supplying it
 * (absent or sent back masked). A caller who never saw those secrets must not
 * keep them while changing the rest: pointing a shared integration's host or
 * endpoint elsewhere would send its stored password or API key there.
 */
export function inheritedSecrets(stored: Record<string, unknown>, patch: Record<string, unknown>, merged: Record<string, unknown>, secretPaths: string[]): string[] {
  return secretPaths.filter((dotted) => {
    const before = pathValue(stored, dotted);
    if (before === undefined || before === null || before === '') return false;
    const given = pathValue(patch, dotted);
    return (given === undefined || given === MASK) && pathValue(merged, dotted) === before;
  });
}

function isObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}
