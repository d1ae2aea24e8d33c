// Contract §14: no command runs a repository hook, a textconv or an external diff. A repository
// whose hooks folder (core.hooksPath, which can name a committed folder), textconv driver (named
// by the committed .gitattributes) and external diff each write to a file when run; every
// command that runs git is driven over it, and the file stays absent.
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitFiles, git, initRepo, memlint, tempDir } from '../helpers/repo.js';

const MEM = '.claude/memory';
const topic = (name: string, body: string) => `---\nname: ${name}\ndescription: ${name} in one line\ntype: project\n---\n\n${body}`;

function hostileRepo(): { dir: string; ran: string } {
  const dir = initRepo();
  const outside = tempDir('memlint-ran-');
  const ran = join(outside, 'ran.txt');
  const script = (what: string) => {
    const p = join(outside, what);
    writeFileSync(p, `#!/bin/sh\necho ${what} >> '${ran}'\ncat "$1" 2>/dev/null\n`);
    chmodSync(p, 0o755);
    return p;
  };
  const hooks = join(dir, '.githooks');
  mkdirSync(hooks);
  for (const name of ['post-index-change', 'reference-transaction', 'pre-commit', 'commit-msg', 'post-commit', 'post-checkout', 'post-merge', 'pre-push', 'pre-auto-gc', 'fsmonitor-watchman']) {
    writeFileSync(join(hooks, name), `#!/bin/sh\necho ${name} >> '${ran}'\n`);
    chmodSync(join(hooks, name), 0o755);
  }
  commitFiles(dir, {
    '.gitattributes': '*.md diff=evil\n',
    '.githooks/.keep': '',
    [`${MEM}/MEMORY.md`]: '# Memory\n\n- [Deploys](project_deploys.md) — deploys go out on Tuesdays\n',
    [`${MEM}/project_deploys.md`]: topic('Deploys', 'We froze deploys yesterday.\n\nNext freeze tomorrow.\n'),
  });
  // What a user's config may hold for the driver name the repository's .gitattributes picks.
  git(dir, 'config', 'diff.evil.textconv', script('textconv'));
  git(dir, 'config', 'diff.external', script('external-diff'));
  git(dir, 'config', 'core.hooksPath', '.githooks');
  git(dir, 'config', 'core.fsmonitor', join(hooks, 'fsmonitor-watchman'));
  return { dir, ran };
}

const ranNow = (ran: string) => (existsSync(ran) ? readFileSync(ran, 'utf8') : '');

describe('no command runs code from the repository (contract §14)', () => {
  it('the hooks, textconv and external diff are live for git itself', () => {
    const { dir, ran } = hostileRepo();
    git(dir, 'blame', '--', `${MEM}/project_deploys.md`);
    git(dir, 'update-ref', 'refs/probe', 'HEAD');
    expect(ranNow(ran)).toMatch(/textconv/);
    expect(ranNow(ran)).toMatch(/reference-transaction/);
  });

  it('lint, --fix, --staged, consolidate, diff, touch, show, resolve and doctor run none of them', () => {
    const { dir, ran } = hostileRepo();
    const env = { MEMLINT_TODAY: '2026-11-29' };
    rmSync(ran, { force: true });
    const run = (args: string[]) => memlint(dir, args, { env });
    // absolute-dates dates each line by git blame: reached in lint and --fix.
    // The message names the line's commit date, which only blame gives.
    expect(run([MEM]).stdout).toMatch(/counted from the line's commit date, \d{4}-\d{2}-\d{2}/);
    // A date counted from a commit is a suggestion, so --fix writes none (issue 29), but it asks blame all the same.
    run(['--fix', MEM]);
    expect(readFileSync(join(dir, MEM, 'project_deploys.md'), 'utf8')).toContain('We froze deploys yesterday.');
    writeFileSync(join(dir, MEM, 'project_deploys.md'), topic('Deploys', 'We froze deploys yesterday.\n\nNext freeze tomorrow, again.\n'));
    git(dir, '-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false', 'add', '-A');
    rmSync(ran, { force: true });
    run(['--staged']);
    git(dir, '-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false', 'commit', '-qm', 'edit');
    run(['consolidate', '--force']);
    run(['diff', 'HEAD~1..HEAD']);
    run(['touch']);
    run(['show']);
    run(['resolve']);
    run(['doctor']);
    expect(ranNow(ran)).toBe('');
  });
});
