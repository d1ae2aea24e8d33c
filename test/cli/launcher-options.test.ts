// The launcher (dist/cli.js) decides whether it may answer `--staged` or a consolidate hook mode
// itself from the same option tables the commands parse with (src/commands/options.ts). Every
// lint option is either let through to that early answer or named here as one the program must
// answer: an option added to the table without that decision fails this test, and so does one
// whose early answer the launcher does not give. The built launcher is held to the same list,
// with a program in place of dist/main.mjs that only says it ran.
import { spawnSync } from 'node:child_process';
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONSOLIDATE_OPTIONS, LINT_OPTIONS, isPlainHook, isPlainStaged } from '../../src/commands/options.js';
import { ROOT, git, tempDir, writeFiles } from '../helpers/repo.js';
import { cleanRepo } from './setup.js';

/** Lint options the program answers even when nothing staged is memory (it refuses them with --staged, or prints). */
const PROGRAM_ANSWERS = ['fix', 'list-memdirs', 'rules', 'formats'];
/** A value the early answer accepts, for each lint option that takes one. */
const SAMPLE: Record<string, string> = { format: 'stylish', config: '.memlintrc.json', 'max-warnings': '0', rule: 'no-secrets=off' };

const argsOf = (name: string, spec: { type: string }) => {
  if (spec.type === 'boolean') return [`--${name}`];
  const value = SAMPLE[name];
  if (value === undefined) throw new Error(`lint option --${name} takes a value: name one its early answer accepts in SAMPLE`);
  return [`--${name}`, value];
};

/** A copy of dist/ whose program only says it ran (exit 3): what the launcher answers alone exits otherwise. */
function launcherOnly(): string {
  const dist = join(tempDir('memlint-launcher-'), 'dist');
  cpSync(join(ROOT, 'dist'), dist, { recursive: true });
  writeFileSync(join(dist, 'main.mjs'), "export async function main() { process.stderr.write('program\\n'); return 3; }\n");
  return join(dist, 'cli.js');
}

function run(cli: string, cwd: string, args: string[], input = ''): { code: number | null; stderr: string } {
  const r = spawnSync(process.execPath, [cli, ...args], { cwd, input, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', HUSKY: '' } });
  return { code: r.status, stderr: r.stderr };
}

describe('the launcher reads the commands’ own option tables', () => {
  it('every lint option is let through to the early --staged answer, or named as one the program answers', () => {
    const early = Object.keys(LINT_OPTIONS).filter((name) => !PROGRAM_ANSWERS.includes(name));
    for (const name of early) {
      const args = argsOf(name, LINT_OPTIONS[name as keyof typeof LINT_OPTIONS]);
      expect(isPlainStaged(['--staged', ...args]), args.join(' ')).toBe(true);
      expect(isPlainStaged(['lint', ...args, '--staged']), args.join(' ')).toBe(true);
    }
    for (const name of PROGRAM_ANSWERS) {
      expect(Object.keys(LINT_OPTIONS)).toContain(name);
      expect(isPlainStaged(['--staged', `--${name}`]), name).toBe(false);
    }
    // Values the program must judge or print for, a PATH, an unknown option, help: the program.
    for (const args of [['--format', 'json'], ['--format', 'nope'], ['--max-warnings', 'x'], ['--rule', 'x'], ['some/path'], ['--frobnicate'], ['-h']]) {
      expect(isPlainStaged(['--staged', ...args]), args.join(' ')).toBe(false);
    }
    expect(isPlainStaged(['--quiet'])).toBe(false);
  });

  it('the consolidate hook modes: --config and git’s words beside them, nothing else', () => {
    expect(Object.keys(CONSOLIDATE_OPTIONS)).toEqual(expect.arrayContaining(['pre-push', 'post-commit', 'config']));
    expect(isPlainHook(['consolidate', '--pre-push', 'origin', 'git@example.com:a/b.git'], 'pre-push')).toBe(true);
    expect(isPlainHook(['consolidate', '--pre-push', '--config', 'x.json'], 'pre-push')).toBe(true);
    expect(isPlainHook(['consolidate', '--post-commit', '--config=x.json'], 'post-commit')).toBe(true);
    for (const other of Object.keys(CONSOLIDATE_OPTIONS).filter((n) => n !== 'config' && n !== 'pre-push')) {
      expect(isPlainHook(['consolidate', '--pre-push', `--${other}`], 'pre-push'), other).toBe(false);
    }
    expect(isPlainHook(['consolidate', '--pre-push', '--help'], 'pre-push')).toBe(false);
    expect(isPlainHook(['lint', '--pre-push'], 'pre-push')).toBe(false);
  });

  it('the built launcher answers those options itself, and hands the others to the program', () => {
    const cli = launcherOnly();
    const { repo } = cleanRepo();
    writeFiles(repo, { 'src/app.ts': 'export {};\n' });
    git(repo, 'add', 'src/app.ts');
    for (const [name, spec] of Object.entries(LINT_OPTIONS)) {
          const args = ['--staged', ...(PROGRAM_ANSWERS.includes(name) ? [`--${name}`] : argsOf(name, spec))];
      const r = run(cli, repo, args);
      expect(r, args.join(' ')).toEqual(PROGRAM_ANSWERS.includes(name) ? { code: 3, stderr: 'program\n' } : { code: 0, stderr: '' });
    }
    // A push that sends no commits: answered by the launcher, with --config beside the mode.
    expect(run(cli, repo, ['consolidate', '--pre-push', '--config', 'x.json', 'origin', 'url'])).toEqual({ code: 0, stderr: '' });
    expect(run(cli, repo, ['consolidate', '--pre-push', '--check'])).toEqual({ code: 3, stderr: 'program\n' });
  });
});
