import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const bin = (pkg: string, file: string) => path.join(path.dirname(require.resolve(`${pkg}/package.json`)), file);

/** What the OpenAPI validator said. */
export interface OpenApiValidation {
  valid: boolean;
  errors?: unknown;
}

/**
 * Both tools are ES modules (jest's CommonJS runtime cannot load them), so they
 * run as their own CLIs on a temporary copy of the document.
 */
async function withDocument<T>(document: unknown, work: (file: string, dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tabula-openapi-'));
  try {
    const file = path.join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(document));
    return await work(file, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Validates a document against the OpenAPI 3.x JSON schemas (@seriousme/openapi-schema-validator, strict). */
export function validateOpenApi(document: unknown): Promise<OpenApiValidation> {
  return withDocument(document, async (file) => {
    const cli = bin('@seriousme/openapi-schema-validator', 'bin/validate-api-cli.js');
    const out = await run(process.execPath, [cli, file]).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '{"valid":false}' }));
    return JSON.parse(out.stdout) as OpenApiValidation;
  });
}

/** Generates TypeScript types from a document with `openapi-typescript`; throws with its output when it fails. */
export function openApiTypes(document: unknown): Promise<string> {
  return withDocument(document, async (file, dir) => {
    const out = path.join(dir, 'types.ts');
    await run(process.execPath, [bin('openapi-typescript', 'bin/cli.js'), file, '-o', out]);
    return readFileSync(out, 'utf8');
  });
}
