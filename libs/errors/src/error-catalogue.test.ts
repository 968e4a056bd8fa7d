import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { AppError } from './app-error';
import { ERROR_CATALOGUE, appError, errors } from './error-catalogue';

const root = path.join(__dirname, '../../..');

describe('error catalogue', () => {
  it('gives every code its one status', () => {
    for (const [code, status] of Object.entries(ERROR_CATALOGUE)) {
      const error = appError(code as keyof typeof ERROR_CATALOGUE, 'm');
      expect({ code: error.code, status: error.status }).toEqual({ code, status });
      expect(error).toBeInstanceOf(AppError);
    }
  });

  it('types the factories by status', () => {
    expect(errors.notFound('ERR_TABLE_NOT_FOUND', "Table 't' not found")).toMatchObject({ status: 404, code: 'ERR_TABLE_NOT_FOUND' });
    expect(errors.conflict('ERR_BASE_AMBIGUOUS', 'two')).toMatchObject({ status: 409 });
    // @ts-expect-error a 400 code is not a not-found code
    expect(errors.notFound('ERR_INVALID_JSON', 'x').status).toBe(400);
  });

  it('is the only place a status is paired with a code: no literal `new AppError(4xx, ...)` in services or libs', () => {
    let out = '';
    try {
      out = execFileSync('grep', ['-rnE', "new AppError\\(\\s*[0-9]{3}", 'services', 'libs', '--include=*.ts'], { cwd: root, encoding: 'utf8' });
    } catch (err) {
      if ((err as { status?: number }).status !== 1) throw err;
    }
    const sites = out.split('\n').filter((l) => l && !/\.test\.ts:/.test(l));
    expect(sites).toEqual([]);
  });
});
