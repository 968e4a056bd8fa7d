import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { ConfigError, envBoolean, envInt, loadConfig } from './index';

const schema = z.object({ PORT: envInt(8080, 1, 65535), SECRET: z.string().min(8), FLAG: envBoolean(false) });

describe('loadConfig', () => {
  it('applies defaults and coerces types', () => {
    expect(loadConfig(schema, { SECRET: '12345678', FLAG: 'true' })).toEqual({ PORT: 8080, SECRET: '12345678', FLAG: true });
  });

  it('lists every problem at once', () => {
    try {
      loadConfig(schema, { PORT: '0', FLAG: 'maybe' });
      throw new Error('should have failed');
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).problems.map((p) => p.split(':')[0]).sort()).toEqual(['FLAG', 'PORT', 'SECRET']);
    }
  });

  it('reads NAME_FILE when NAME is unset', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cfg-'));
    writeFileSync(path.join(dir, 'secret'), 'from-a-file\n');
    expect(loadConfig(schema, { SECRET_FILE: path.join(dir, 'secret') }).SECRET).toBe('from-a-file');
  });
});
