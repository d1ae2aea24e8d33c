// The prepare script install writes, run by real npm (trial finding 1): memlint (and husky) are
// devDependencies, absent after `npm ci --omit=dev` or `NODE_ENV=production npm ci` (a Docker
// build, a production deploy), where an unguarded `memlint install --local` failed the install
// with exit 127. The guarded prepare lets those installs go on, and a full `npm ci` still sets
// the clone up.
import { describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { git, initRepo, tempDir } from '../helpers/repo.js';
import { packMemlint, sh } from './helpers.js';

function packInstalled(name: string, dir: string): string {
  const file = execFileSync('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', dir, join(process.cwd(), 'node_modules', name)], { cwd: dir, encoding: 'utf8' });
  return join(dir, file.trim().split('\n').pop()!);
}

const npm = (dir: string, args: string[], env: Record<string, string> = {}) => sh(dir, 'npm', [...args, '--offline', '--no-audit', '--no-fund'], env);

describe('the prepare script under real npm', () => {
  for (const withHusky of [false, true]) {
    it(`lets npm ci --omit=dev and NODE_ENV=production npm ci go on without memlint${withHusky ? ' and husky' : ''}; a full npm ci still sets the clone up`, () => {
      const packs = tempDir('memlint-packs-');
      const tarballs = [packMemlint(packs), ...(withHusky ? [packInstalled('husky', packs)] : [])];
      const dir = initRepo();
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true }, null, 2) + '\n');
      writeFileSync(join(dir, '.gitignore'), 'node_modules/\n');
      const added = npm(dir, ['install', '-D', ...tarballs]);
      expect(added.code, added.out).toBe(0);
      const installed = spawnSync(join(dir, 'node_modules', '.bin', 'memlint'), ['install', '--quiet'], { cwd: dir, encoding: 'utf8', env: { ...process.env, MEMLINT_LINK: '0' } });
      expect(installed.status, `${installed.stdout}${installed.stderr}`).toBe(0);
      const prepare = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { scripts: { prepare: string } }).scripts.prepare;
      expect(prepare).toBe(withHusky ? 'husky && memlint install --local || exit 0' : 'memlint install --local || exit 0');

      for (const [args, env] of [[['ci', '--omit=dev'], {}], [['ci'], { NODE_ENV: 'production' }]] as const) {
        rmSync(join(dir, 'node_modules'), { recursive: true, force: true });
        spawnSync('git', ['config', '--unset-all', 'merge.memlint.driver'], { cwd: dir });
        const r = npm(dir, [...args], env);
        expect(r.code, r.out).toBe(0);
        expect(existsSync(join(dir, 'node_modules', '.bin', 'memlint'))).toBe(false);
        // Nothing of memlint's ran: no driver defined.
        expect(spawnSync('git', ['config', 'merge.memlint.driver'], { cwd: dir }).status).toBe(1);
      }

      rmSync(join(dir, 'node_modules'), { recursive: true, force: true });
      const full = npm(dir, ['ci']);
      expect(full.code, full.out).toBe(0);
      expect(git(dir, 'config', 'merge.memlint.driver')).toContain('memlint');
    });
  }
});
