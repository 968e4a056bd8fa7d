import { readFileSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { DockerfileParser } from 'dockerfile-ast';

const root = path.resolve(__dirname, '..', '..');
const text = readFileSync(path.join(root, 'Dockerfile'), 'utf8');
const dockerfile = DockerfileParser.parse(text);
const instructions = dockerfile.getInstructions().map((i) => ({ keyword: i.getKeyword(), args: i.getArgumentsContent() ?? '' }));

describe('Dockerfile', () => {
  it('passes dockerfile-utils lint with no diagnostics', () => {
    const res = spawnSync(process.execPath, [require.resolve('dockerfile-utils/bin/dockerfile-utils'), 'lint', path.join(root, 'Dockerfile')], { encoding: 'utf8' });
    expect(res.status).toBe(0);
    expect(res.stdout.trim()).toBe('');
  });

  it('follows the image policy: pinned bases, slim apt installs, non-root, tini, exec-form entry', () => {
    const args = Object.fromEntries(instructions.filter((i) => i.keyword === 'ARG').map((i) => i.args.split('=')));
    for (const from of instructions.filter((i) => i.keyword === 'FROM')) {
      const image = from.args.split(/\s+/)[0].replace(/\$\{(\w+)\}/, (_, n: string) => args[n] ?? '');
      const isStage = instructions.some((i) => i.keyword === 'FROM' && new RegExp(`AS ${image}$`, 'i').test(i.args));
      if (!isStage) expect({ image, pinned: /:[0-9][^:]*$/.test(image) }).toEqual({ image, pinned: true });
    }
    for (const run of instructions.filter((i) => i.keyword === 'RUN' && i.args.includes('apt-get install'))) {
      expect(run.args).toMatch(/--no-install-recommends/);
      expect(run.args).toMatch(/rm -rf \/var\/lib\/apt\/lists/);
    }
    expect(instructions.some((i) => i.keyword === 'ADD')).toBe(false);
    expect(instructions.some((i) => i.keyword === 'HEALTHCHECK')).toBe(false);
    const lastStage = text.slice(text.lastIndexOf('\nFROM '));
    const user = [...lastStage.matchAll(/^USER\s+(\S+)/gm)].pop()?.[1];
    expect(user && !/^(0|root)(:|$)/.test(user)).toBe(true);
    const entry = instructions.filter((i) => i.keyword === 'ENTRYPOINT').pop()!;
    expect(JSON.parse(entry.args)[0]).toBe('/usr/bin/tini');
    expect(lastStage).toMatch(/COPY --from=prod-deps/);
    expect(lastStage).not.toMatch(/npm ci(?![^\n]*--omit=dev)/);
  });

  it('keeps dependencies and build output out of the context (.dockerignore)', () => {
    const ignore = readFileSync(path.join(root, '.dockerignore'), 'utf8').split('\n').map((l) => l.trim());
    expect(ignore).toEqual(expect.arrayContaining(['**/node_modules', 'dist', 'data', '.git']));
  });
});
