// A memory folder that is a symlink out of the repository (trial finding 8): discovery reports it
// instead of skipping it without a word (which let pre-commit and CI pass), doctor says so on a
// FAIL line instead of dying on git's "beyond a symbolic link", install refuses before writing
// anything, and where does not offer a fix that cannot work. Nothing is read or written through it.
import { describe, expect, it } from 'vitest';
import { mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { git, initRepo, memlint, tempDir } from '../helpers/repo.js';

const MESSAGE = 'memlint: .claude/memory is a symlink out of the repository; memlint does not follow it (a memory folder there is not linted, fixed or consolidated: put the folder itself in its place)\n';

function repoWithMemoryOutside(opts: { config?: string } = {}) {
  const outside = tempDir('memlint-outside-');
  writeFileSync(join(outside, 'MEMORY.md'), '# Memory\n\n- [Dash](reference_dash.md) — dashboards\n');
  // An orphan and a bad type: lint would report both if it read the folder, and --fix would write.
  writeFileSync(join(outside, 'reference_dash.md'), '---\nname: Dash\ndescription: Dashboards\ntype: nonsense\n---\nGrafana.\n');
  writeFileSync(join(outside, 'orphan.md'), '---\nname: O\ndescription: o\ntype: project\n---\no\n');
  const dir = initRepo();
  writeFileSync(join(dir, 'package.json'), '{ "name": "app", "private": true }\n');
  if (opts.config) writeFileSync(join(dir, '.memlintrc.json'), opts.config);
  mkdirSync(join(dir, '.claude'));
  symlinkSync(outside, join(dir, '.claude', 'memory'));
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '--no-verify', '-m', 'memory as a symlink');
  const before = snapshot(outside);
  return { dir, outside, before };
}

function snapshot(dir: string): string {
  return readdirSync(dir)
    .sort()
    .map((f) => `${f} ${statSync(join(dir, f)).mtimeMs} ${readFileSync(join(dir, f), 'utf8')}`)
    .join('\n');
}

describe('a memory folder that is a symlink out of the repository', () => {
  it('lint (and --fix) report it and exit 2, as naming it does; nothing is read or written through it', () => {
    const { dir, outside, before } = repoWithMemoryOutside();
    for (const args of [[], ['--fix'], ['--format', 'json']]) {
      const r = memlint(dir, args);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(MESSAGE);
    }
    // Named on the command line: the same verdict, in the words it had already.
    const named = memlint(dir, ['.claude/memory']);
    expect(named).toMatchObject({ code: 2, stderr: 'memlint: .claude/memory is a symlink out of the repository; memlint does not follow it\n' });
    expect(snapshot(outside)).toBe(before);
  });

  it('--staged (the pre-commit hook) refuses a staged memory folder symlink instead of finding "nothing staged is memory"', () => {
    const outside = tempDir('memlint-outside-');
    writeFileSync(join(outside, 'MEMORY.md'), '# Memory\n');
    const dir = initRepo();
    writeFileSync(join(dir, 'README.md'), 'app\n');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'init');
    mkdirSync(join(dir, '.claude'));
    symlinkSync(outside, join(dir, '.claude', 'memory'));
    git(dir, 'add', '-A');
    expect(memlint(dir, ['--staged'])).toMatchObject({ code: 2, stderr: MESSAGE });
    // From a subfolder too (paths staged are the top's).
    mkdirSync(join(dir, 'sub'));
    expect(memlint(join(dir, 'sub'), ['--staged'])).toMatchObject({ code: 2, stderr: MESSAGE });
  });

  it('a symlinked .claude folder, and the config "link" folder, are reported the same way', () => {
    const outside = tempDir('memlint-outside-');
    mkdirSync(join(outside, 'memory'));
    writeFileSync(join(outside, 'memory', 'MEMORY.md'), '# Memory\n');
    const dir = initRepo();
    symlinkSync(outside, join(dir, '.claude'));
    expect(memlint(dir, [])).toMatchObject({ code: 2, stderr: expect.stringContaining('memlint: .claude is a symlink out of the repository') });

    const other = initRepo();
    mkdirSync(join(other, 'team'));
    symlinkSync(join(outside, 'memory'), join(other, 'team', 'notes'));
    writeFileSync(join(other, '.memlintrc.json'), '{ "link": "team/notes" }\n');
    expect(memlint(other, [])).toMatchObject({ code: 2, stderr: expect.stringContaining('memlint: team/notes is a symlink out of the repository') });
  });

  it('doctor prints a FAIL line naming it, never a git error; install --link refuses before writing anything; where offers no fix that cannot work', () => {
    const { dir, outside, before } = repoWithMemoryOutside();
    const doctor = memlint(dir, ['doctor'], { env: { HOME: tempDir('memlint-home-') } });
    expect(doctor.code).toBe(1);
    expect(doctor.stderr).toBe('');
    expect(doctor.stdout).toContain('FAIL  memory folder: .claude/memory is a symlink out of the repository; memlint does not follow it: nothing in it is linted, merged or consolidated; fix: ');
    expect(doctor.stdout).not.toContain('check-ignore');
    // install refuses while the memory folder is a symlink: the hooks and driver lines say to fix that first.
    const first = 'fix: first put a folder in the repository in place of the symlink .claude/memory (the memory folder line), then memlint install';
    expect(doctor.stdout).toMatch(/^FAIL {2}hooks: core\.hooksPath is not set/m);
    expect(doctor.stdout).toMatch(/^FAIL {2}merge driver: merge\.memlint\.driver is not defined/m);
    for (const part of ['hooks', 'merge driver']) {
      const line = doctor.stdout.split('\n').find((l) => l.startsWith(`FAIL  ${part}:`))!;
      expect(line, part).toContain(first);
      expect(line, part).not.toMatch(/fix: memlint install/);
    }
    expect(doctor.stdout).toMatch(/^FAIL {2}link: the repository's memory folder \.claude\/memory cannot be linked: .*fix: put a real folder at \.claude\/memory/m);

    const files = () => git(dir, 'status', '--porcelain', '--ignored') + readdirSync(dir).sort().join(',') + git(dir, 'config', '--local', '--list');
    const was = files();
    const install = memlint(dir, ['install', '--link'], { env: { HOME: tempDir('memlint-home-') } });
    expect(install).toMatchObject({ code: 2, stdout: '', stderr: MESSAGE });
    expect(files()).toBe(was);

    const where = memlint(dir, ['where'], { env: { HOME: tempDir('memlint-home-') } });
    const team = where.stdout.split('\n').find((l) => l.includes('team memory:')) ?? '';
    expect(team).toContain('fix: put a real folder at .claude/memory');
    expect(team).not.toContain('memlint install');
    expect(snapshot(outside)).toBe(before);
  });

  it('install --link to a memory folder symlinked inside the repository: not linked, said once (no repeated wording)', () => {
    const dir = initRepo();
    mkdirSync(join(dir, 'docs', 'mem'), { recursive: true });
    writeFileSync(join(dir, 'docs', 'mem', 'MEMORY.md'), '# Memory\n');
    mkdirSync(join(dir, '.claude'));
    symlinkSync('../docs/mem', join(dir, '.claude', 'memory'));
    const r = memlint(dir, ['install', '--link'], { env: { HOME: tempDir('memlint-home-') } });
    const last = r.stdout.trim().split('\n').pop();
    expect(last).toBe(`memlint link: not linked: ${join(dir, '.claude', 'memory')} is a symlink; memlint does not write or read through it`);
  });
});
