// The program's own words: help for every command (`memlint help CMD` and `CMD --help`), the
// version, and a mistyped command or rule answered with the closest name, in this process
// (test/helpers/in-process.ts: the same main()); the program's list of commands through the built
// CLI as well.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { closestName } from '../../src/closest.js';
import { COMMAND_NAMES, COMMANDS } from '../../src/commands/names.js';
import { VERSION } from '../../src/version.js';
import { memlintInProcess } from '../helpers/in-process.js';
import { initRepo, memlint, writeFiles } from '../helpers/repo.js';

const usage = (cmd: string) => (cmd === 'lint' ? 'Usage: memlint [lint] [options] [PATH...]' : `Usage: memlint ${cmd}`);

describe('help and version', () => {
  const dir = initRepo();

  it('every command prints its help with --help and with "memlint help CMD", exit 0', async () => {
    for (const cmd of COMMAND_NAMES) {
      const flag = await memlintInProcess(dir, [cmd, '--help']);
      expect([cmd, flag.code, flag.stderr]).toEqual([cmd, 0, '']);
      expect(flag.stdout.startsWith(usage(cmd)), `${cmd}: ${flag.stdout.slice(0, 80)}`).toBe(true);
      const help = await memlintInProcess(dir, ['help', cmd]);
      expect([cmd, help.code]).toEqual([cmd, 0]);
      expect(help.stdout).toBe(flag.stdout);
      // A Usage line that spells out the options spells out each one the help describes.
      const line = flag.stdout.split('\n')[0]!;
      if (line.includes('[--')) {
        const described = [...flag.stdout.matchAll(/^ {2}(?:-\w, )?(--[\w-]+)/gm)].map((m) => m[1]!).filter((o) => o !== '--help');
        expect([cmd, described.filter((o) => !line.includes(o))]).toEqual([cmd, []]);
      }
    }
  });

  it('"memlint help" alone, and an unknown "memlint help X", point to the list', async () => {
    expect((await memlintInProcess(dir, ['help'])).stdout).toContain('Commands:');
    for (const args of [['help', '--help'], ['help', '-h'], ['help', 'help']]) expect(await memlintInProcess(dir, args), args.join(' ')).toMatchObject({ code: 0, stderr: '', stdout: expect.stringContaining('Commands:') });
    const r = await memlintInProcess(dir, ['help', 'instal']);
    expect(r).toMatchObject({ code: 2, stdout: '', stderr: 'memlint: no command "instal": did you mean "memlint help install"? (see "memlint --help")\n' });
    // A word that is no plausible typo of a command gets no suggestion (it was "touch", two edits off).
    expect(await memlintInProcess(dir, ['help', 'nosuch'])).toMatchObject({ code: 2, stdout: '', stderr: 'memlint: no command "nosuch" (see "memlint --help")\n' });
  });

  it('"memlint --help" lists every command of the table, in its order, with its summary', () => {
    const listed = memlint(dir, ['--help']).stdout.split('\n').filter((l) => /^  [a-z]/.test(l)).map((l) => l.trim().split(/\s{2,}/));
    expect(listed).toEqual(COMMAND_NAMES.map((name) => [name, COMMANDS[name].summary]));
  });

  it('"memlint version" and --version print the version', async () => {
    for (const args of [['version'], ['--version'], ['-v']]) expect(await memlintInProcess(dir, args)).toMatchObject({ code: 0, stdout: `${VERSION}\n` });
  });
});

describe('mistyped names', () => {
  it('a mistyped command suggests the closest one, exit 2', async () => {
    const dir = initRepo();
    for (const [typo, meant] of [['instal', 'install'], ['resolv', 'resolve'], ['docter', 'doctor'], ['verison', 'version'], ['consolidte', 'consolidate']]) {
      const r = await memlintInProcess(dir, [typo!]);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`memlint: "${typo}" is not a command, nor a file or folder here: did you mean "memlint ${meant}"? (see "memlint --help")\n`);
    }
    // Nothing close: the path is reported missing, as before.
    expect((await memlintInProcess(dir, ['zzqx'])).stderr).toBe('memlint: no such file or folder: zzqx\n');
    expect((await memlintInProcess(dir, ['nosuch'])).stderr).toBe('memlint: no such file or folder: nosuch\n');
  });

  it('a real folder named like a mistyped command still lints', async () => {
    const dir = initRepo();
    writeFiles(dir, { 'instal/MEMORY.md': '- [A](a.md) — about a\n', 'instal/a.md': '---\nname: a\ndescription: about a\ntype: user\n---\nA.\n' });
    const r = await memlintInProcess(dir, ['instal']);
    expect(r.code, r.stderr).toBe(0);
    mkdirSync(join(dir, 'version'));
    expect((await memlintInProcess(dir, ['version'])).stdout).toBe(`${VERSION}\n`);
  });

  it('an unknown --rule points to the rule list and suggests the closest id', async () => {
    const dir = initRepo();
    const none = await memlintInProcess(dir, ['--rule', 'nosuchrule=off']);
    expect(none).toMatchObject({ code: 2, stderr: 'memlint: unknown rule "nosuchrule" in --rule (run "memlint lint --help --rules" for the list)\n' });
    const typo = await memlintInProcess(dir, ['--rule', 'index-duplicat=off']);
    expect(typo.stderr).toBe('memlint: unknown rule "index-duplicat" in --rule: did you mean "index-duplicate"? (run "memlint lint --help --rules" for the list)\n');
    expect((await memlintInProcess(dir, ['lint', '--help', '--rules'])).stdout).toMatch(/^index-duplicate\s+error\s+fixable/m);
  });

  it('closestName takes typos and prefixes, not unrelated words', () => {
    const names = ['install', 'uninstall', 'lint', 'link', 'diff'];
    expect(closestName('instal', names)).toBe('install');
    expect(closestName('uninst', names)).toBe('uninstall');
    expect(closestName('lnik', names)).toBe('link');
    expect(closestName('deploys', names)).toBeNull();
    expect(closestName('x', names)).toBeNull();
    expect(closestName('nosuch', ['touch', 'install'])).toBeNull();
    expect(closestName('consoldiate', ['consolidate'])).toBe('consolidate');
  });
});
