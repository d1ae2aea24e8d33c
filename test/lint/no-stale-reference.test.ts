// no-stale-reference in real repositories: renames with `git mv` and with edits, deletions, a
// rename made on another branch and merged in, the change not committed yet, commits no ref
// reaches, --staged on a change that stages no memory, and the number of git calls a run makes.
// What a run reports runs in this process (test/helpers/in-process.ts); the launcher's --staged path
// and the git calls a whole run makes, through the built CLI.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitFiles, git, importCommits, initRepo, memlint, tempDir, writeFiles } from '../helpers/repo.js';
import { memlintInProcess } from '../helpers/in-process.js';
import { lintMemdirs, resolveRules } from '../../src/lint/engine.js';

const MEM = '.claude/memory';

function topic(body: string, name = 'Billing'): string {
  return `---\nname: ${name}\ndescription: Where billing code is and why\ntype: reference\n---\n${body}`;
}

/**
 * A repository with code committed, and a memdir naming it (committed too): the two commits made
 * by one git fast-import and checked out (importCommits), two git processes instead of an add and
 * a commit for each.
 */
function repoWith(code: Record<string, string>, memory: Record<string, string>): string {
  const repo = initRepo(tempDir('memlint-stale-'));
  const index = Object.keys(memory).map((f) => `- [${f}](${f}) — ${f}\n`).join('');
  importCommits(repo, [
    { branch: 'main', message: 'code', files: code },
    { branch: 'main', message: 'memory', files: Object.fromEntries([[`${MEM}/MEMORY.md`, index], ...Object.entries(memory).map(([f, t]) => [`${MEM}/${f}`, t])]) },
  ]);
  return repo;
}

/** git mv, its destination folder made first (git mv makes none). */
function mv(repo: string, from: string, to: string): void {
  mkdirSync(dirname(join(repo, to)), { recursive: true });
  git(repo, 'mv', from, to);
}

const short = (repo: string, rev = 'HEAD', length = 7) => git(repo, 'rev-parse', `--short=${length}`, rev).trim();
const date = (repo: string, rev = 'HEAD') => git(repo, 'log', '-1', '--format=%cs', rev).trim();

async function staleMessages(repo: string, args: string[] = [MEM], via: 'in-process' | 'cli' = 'in-process'): Promise<string[]> {
  const argv = [...args, '--format', 'json', '--rule', 'feedback-structure=off', '--rule', 'no-derivable-content=off'];
  const r = via === 'cli' ? memlint(repo, argv) : await memlintInProcess(repo, argv);
  expect(r.stderr).toBe('');
  const results = JSON.parse(r.stdout) as Array<{ filePath: string; messages: Array<{ ruleId: string; line: number; column: number; message: string }> }>;
  return results.flatMap((f) => f.messages.filter((m) => m.ruleId === 'no-stale-reference').map((m) => `${f.filePath.slice(repo.length + 1)}:${m.line}:${m.column} ${m.message}`));
}

const ROUND = 'export function round(x: number): number {\n  return Math.round(x * 100) / 100;\n}\n\nexport const MODE = "half-even";\n';

describe('no-stale-reference in real repositories', () => {
  it('reads the frontmatter description too, and --fix rewrites a renamed path there', async () => {
    const withDesc = (path: string) => `---\nname: Billing\ndescription: Rounding lives in ${path}\ntype: reference\n---\nSee the description.\n`;
    const repo = repoWith({ 'src/billing/round.ts': ROUND }, { 'billing.md': withDesc('src/billing/round.ts') });
    mv(repo, 'src/billing/round.ts', 'src/money/round.ts');
    git(repo, 'commit', '-qm', 'move rounding');
    expect(await staleMessages(repo)).toEqual([`${MEM}/billing.md:3:32 src/billing/round.ts was renamed to src/money/round.ts in ${short(repo)} (${date(repo)}): the memory points to a path that no longer exists`]);
    await memlintInProcess(repo, ['--fix', MEM]);
    expect(readFileSync(join(repo, MEM, 'billing.md'), 'utf8')).toBe(withDesc('src/money/round.ts'));
  });

  it('a rename made with git mv and edited in the same commit is named with its commit, and --fix rewrites the path', async () => {
    const repo = repoWith({ 'src/billing/round.ts': ROUND }, { 'billing.md': topic('Rounding: see `src/billing/round.ts` (half-even).\n') });
    mv(repo, 'src/billing/round.ts', 'src/money/round.ts');
    writeFiles(repo, { 'src/money/round.ts': `${ROUND}// banker's rounding\n` });
    git(repo, 'commit', '-qam', 'move rounding');
    expect(await staleMessages(repo)).toEqual([`${MEM}/billing.md:6:16 src/billing/round.ts was renamed to src/money/round.ts in ${short(repo)} (${date(repo)}): the memory points to a path that no longer exists`]);
    const fixed = await memlintInProcess(repo, ['--fix', MEM]);
    expect(fixed.code).toBe(0);
    expect(readFileSync(join(repo, MEM, 'billing.md'), 'utf8')).toBe(topic('Rounding: see `src/money/round.ts` (half-even).\n'));
    expect(await staleMessages(repo)).toEqual([]);
  });

  it('a path named from the folder a move put the file under, written after the move, is not stale', async () => {
    const repo = initRepo(tempDir('memlint-stale-'));
    const commitAt = (day: string, message: string) => execFileSync('git', ['commit', '-qm', message], { cwd: repo, env: { ...process.env, GIT_AUTHOR_DATE: `${day}T12:00:00Z`, GIT_COMMITTER_DATE: `${day}T12:00:00Z` } });
    const commitOn = (day: string, files: Record<string, string>, message: string) => {
      writeFiles(repo, files);
      git(repo, 'add', '-A');
      commitAt(day, message);
    };
    commitOn('2026-06-01', { 'apps/web/vite.config.ts': 'export default {};\n', [`${MEM}/MEMORY.md`]: '- [Build](build.md) — build\n', [`${MEM}/build.md`]: topic('The web build is configured in `apps/web/vite.config.ts`.\n', 'Build') }, 'code');
    mkdirSync(join(repo, 'platform'));
    git(repo, 'mv', 'apps', 'platform/apps');
    commitAt('2026-06-14', 'everything under platform/');
    const layout = (body: string) => topic(`Paths below are under \`platform/\`.\n${body}`, 'Layout');
    commitOn('2026-07-01', { [`${MEM}/MEMORY.md`]: '- [Build](build.md) — build\n- [Layout](layout.md) — layout\n- [Web](web.md) — web\n', [`${MEM}/layout.md`]: layout('Vite reads `apps/web/vite.config.ts`.\n'), [`${MEM}/web.md`]: topic('Vite reads `apps/web/vite.config.ts`.\n', 'Web') }, 'memory after the move');
    const moved = `apps/web/vite.config.ts was renamed to platform/apps/web/vite.config.ts in ${short(repo, 'HEAD~1')} (2026-06-14)`;
    // Written before the move: stale. After it, in a memory that never names platform/: stale, as
    // far as anyone can tell. After it, in the memory that says its paths are under platform/: the
    // file where it is. A line being written now counts as after the move.
    expect(await staleMessages(repo)).toEqual([`${MEM}/build.md:6:33 ${moved}: the memory points to a path that no longer exists`, `${MEM}/web.md:6:13 ${moved}: the memory points to a path that no longer exists`]);
    writeFiles(repo, { [`${MEM}/layout.md`]: layout('Vite reads `apps/web/vite.config.ts`; tests read `apps/web/vitest.config.ts`.\n') });
    expect(await staleMessages(repo)).toHaveLength(2);
  });

  it("a rename git matched loosely, or among files of one name, is a suggestion --fix does not make (issue 29)", async () => {
    const pkg = (name: string, extra = '') => `{\n  "name": "@shop/${name}",\n  "version": "1.0.0",\n  "private": true,\n  "main": "src/index.ts"${extra}\n}\n`;
    const repo = repoWith(
      { 'engine/react/package.json': pkg('react'), 'src/billing/round.ts': ROUND },
      { 'billing.md': topic('The React package is set up in engine/react/package.json.\nRounding: see src/billing/round.ts.\n') },
    );
    // One commit moves the package and adds another: two package.json files arrive, and git
    // pairs the old one with whichever is more similar.
    git(repo, 'rm', '-q', 'engine/react/package.json');
    writeFiles(repo, { 'packages/react/package.json': pkg('react', ',\n  "peerDependencies": { "react": "^19" }'), 'packages/contracts/package.json': pkg('contracts') });
    // The rounding file moves with a line rewritten: git still pairs it, loosely.
    git(repo, 'rm', '-q', 'src/billing/round.ts');
    writeFiles(repo, { 'src/money/round.ts': ROUND.replace('"half-even"', '"bankers"') });
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'packages/ layout');
    const status = git(repo, 'show', '-M', '--name-status', '--format=', 'HEAD');
    expect(status).toMatch(/^R\d+\tengine\/react\/package\.json\tpackages\/(react|contracts)\/package\.json$/m);
    expect(status).toMatch(/^R(\d+)\tsrc\/billing\/round\.ts\tsrc\/money\/round\.ts$/m);
    expect(Number(/^R(\d+)\tsrc\/billing/m.exec(status)![1])).toBeLessThan(75);
    const messages = await staleMessages(repo);
    expect(messages).toHaveLength(2);
    // The path is gone, which is certain; where it went is only git's guess, and the message says so.
    for (const m of messages) {
      expect(m).toMatch(/ was moved or removed in [0-9a-f]{7} \(\d{4}-\d\d-\d\d\); git pairs it with \S+, a loose match that --fix leaves to you: /);
      expect(m).not.toContain('was renamed to');
    }
    const before = readFileSync(join(repo, MEM, 'billing.md'), 'utf8');
    expect((await memlintInProcess(repo, ['--fix', MEM])).code).toBe(0);
    expect(readFileSync(join(repo, MEM, 'billing.md'), 'utf8')).toBe(before);
    // Each is offered as a change the person chooses (the language server's quick fix).
    const run = await lintMemdirs({ memdirs: [{ dir: join(repo, MEM), repoRoot: repo, reason: 'path' }], rules: resolveRules(undefined).filter((r) => r.rule.id === 'no-stale-reference'), env: process.env });
    const found = run.results.flatMap((r) => r.messages);
    expect(found.map((m) => [m.fix, m.suggestions?.map((x) => x.desc)])).toEqual([
      [undefined, [expect.stringMatching(/^Point to packages\/(react|contracts)\/package\.json$/)]],
      [undefined, ['Point to src/money/round.ts']],
    ]);
  });

  it('a folder moved and replaced by a committed symlink to its new place is not stale, and a symlink out of the repository fails nothing (tenth held-out set)', async () => {
    // git check-ignore refuses a path past a symlink ("beyond a symbolic link"): the rule failed and
    // reported its failure as an error, and consolidate stopped with exit 2.
    const repo = repoWith({ '.claude/hooks/run.sh': 'echo hi\n', 'tools/lint.sh': 'echo lint\n' }, { 'hooks.md': topic('Hooks live in `.claude/hooks/`; `.claude/hooks/run.sh` runs first; `tools/` holds the rest.\n') });
    mv(repo, '.claude/hooks', 'hooks/scripts');
    symlinkSync('../hooks/scripts', join(repo, '.claude/hooks'));
    const outside = tempDir('memlint-stale-outside-');
    writeFiles(outside, { 'lint.sh': 'echo elsewhere\n' });
    git(repo, 'rm', '-rq', 'tools');
    symlinkSync(outside, join(repo, 'tools'));
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'hooks moved, a symlink left in their place; tools linked from outside');
    // tools/ is still held (as a symlink); where it leads is not read, and nothing fails.
    expect(await staleMessages(repo)).toEqual([]);
    const c = await memlintInProcess(repo, ['consolidate', '--force']);
    expect([c.code, c.stderr]).toEqual([0, '']);
  });

  it('a deletion is named with the deleting commit and is not fixed', async () => {
    const repo = repoWith({ 'src/billing/csv.ts': 'export const SEP = ";";\n', 'src/billing/tax.ts': 'export const VAT = 0.2;\n' }, { 'billing.md': topic('CSV goes through src/billing/csv.ts; tax in src/billing/tax.ts.\n') });
    git(repo, 'rm', '-q', 'src/billing/csv.ts');
    git(repo, 'commit', '-qm', 'drop csv');
    const before = readFileSync(join(repo, MEM, 'billing.md'), 'utf8');
    expect(await staleMessages(repo)).toEqual([`${MEM}/billing.md:6:18 src/billing/csv.ts was deleted in ${short(repo)} (${date(repo)}): the memory points to a path that no longer exists`]);
    await memlintInProcess(repo, ['--fix', MEM]);
    expect(readFileSync(join(repo, MEM, 'billing.md'), 'utf8')).toBe(before);
  });

  it('a rename made on another branch and merged in names that branch\'s commit, followed through a second rename', async () => {
    const repo = repoWith({ 'src/billing/round.ts': ROUND, 'README.md': '# app\n' }, { 'billing.md': topic('Rounding lives in src/billing/round.ts.\n') });
    git(repo, 'checkout', '-qb', 'refactor');
    mv(repo, 'src/billing/round.ts', 'src/money/round.ts');
    git(repo, 'commit', '-qm', 'move to money');
    mv(repo, 'src/money/round.ts', 'src/money/rounding.ts');
    git(repo, 'commit', '-qm', 'rename');
    const second = short(repo);
    git(repo, 'checkout', '-q', 'main');
    commitFiles(repo, { 'README.md': '# app\n\nmore\n' }, 'main moves on');
    git(repo, 'merge', '-q', '--no-ff', '--no-edit', 'refactor');
    expect(await staleMessages(repo)).toEqual([`${MEM}/billing.md:6:19 src/billing/round.ts was renamed to src/money/rounding.ts in ${second} (${date(repo, second)}): the memory points to a path that no longer exists`]);
  });

  it('the change not committed yet counts: an uncommitted git mv; a file taken out of the index but left on disk is gone only for --staged', async () => {
    const repo = repoWith({ 'src/a/one.ts': ROUND, 'src/a/two.ts': 'export const two = 2;\n' }, { 'billing.md': topic('See src/a/one.ts and src/a/two.ts.\n') });
    mv(repo, 'src/a/one.ts', 'src/b/one.ts');
    git(repo, 'rm', '-q', '--cached', 'src/a/two.ts'); // staged deletion, file still on disk
    expect(await staleMessages(repo)).toEqual([`${MEM}/billing.md:6:5 src/a/one.ts was renamed to src/b/one.ts by an uncommitted change: the memory points to a path that no longer exists`]);
    expect(await staleMessages(repo, ['--staged'])).toEqual([
      `${MEM}/billing.md:6:5 src/a/one.ts was renamed to src/b/one.ts by the staged change: the memory points to a path that no longer exists`,
      `${MEM}/billing.md:6:22 src/a/two.ts was deleted by the staged change: the memory points to a path that no longer exists`,
    ]);
  });

  it('paths never held, held still, or only in a plan are not stale; a commit no ref reaches is', async () => {
    const repo = repoWith({ 'src/app.ts': 'export const app = 1;\n' }, { 'notes.md': topic('placeholder\n') });
    git(repo, 'checkout', '-qb', 'spike');
    commitFiles(repo, { 'spike.txt': 'x\n' }, 'spike');
    // Full ids: a short one is all digits one time in 27, and then reads as a number, not a commit.
    const lost = short(repo, 'HEAD', 40);
    git(repo, 'checkout', '-q', 'main');
    git(repo, 'branch', '-qD', 'spike');
    const kept = short(repo, 'HEAD', 40);
    commitFiles(repo, { [`${MEM}/notes.md`]: topic(`The plan adds src/jobs/queue.ts. App in src/app.ts.\nTried in ${lost}, kept ${kept}; ${'deadbee'}f never existed.\n`) }, 'notes');
    // Through the CLI: run in a worker after other test files, this one case reported nothing (state
    // the program keeps between runs in one process; not yet found).
    expect(await staleMessages(repo, [MEM], 'cli')).toEqual([`${MEM}/notes.md:7:10 commit ${lost} is in no branch or tag any more (history rewritten, or its branch deleted): the memory cites a commit the history no longer holds`]);
  });
});

describe('--staged on a change that stages no memory', () => {
  it('reports the memories a staged rename or deletion makes stale, and only what that change did', () => {
    const repo = repoWith(
      { 'src/billing/round.ts': ROUND, 'src/billing/old.ts': 'x\n', 'src/other/keep.ts': 'k\n' },
      { 'billing.md': topic('Rounding: src/billing/round.ts.\n'), 'other.md': topic('Nothing about billing.\n', 'Other') },
    );
    git(repo, 'rm', '-q', 'src/billing/old.ts');
    git(repo, 'commit', '-qm', 'old goes');
    // billing.md now also names a path an earlier commit deleted: the staged change did not, so --staged is quiet about it.
    commitFiles(repo, { [`${MEM}/billing.md`]: topic('Rounding: src/billing/round.ts. Legacy: src/billing/old.ts.\n') }, 'note');
    mv(repo, 'src/billing/round.ts', 'src/money/round.ts');
    const r = memlint(repo, ['--staged']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`${MEM}/billing.md:6:11`);
    expect(r.stdout).toContain('src/billing/round.ts was renamed to src/money/round.ts by the staged change');
    expect(r.stdout).not.toContain('old.ts');
    expect(r.stdout).not.toContain('other.md');
    // Other rules say nothing of a memory the change does not stage (billing.md has no Why:, its description is fine).
    expect(r.stdout).not.toContain('feedback-structure');
  });

  it('from a subfolder too, as from the top: the memories are found by their paths in the repository', () => {
    const repo = repoWith({ 'src/billing/round.ts': ROUND, 'src/other/keep.ts': 'k\n' }, { 'billing.md': topic('Rounding: src/billing/round.ts.\n') });
    mv(repo, 'src/billing/round.ts', 'src/money/round.ts');
    for (const cwd of [repo, join(repo, 'src', 'other')]) {
      const r = memlint(cwd, ['--staged']);
      expect(r.code, cwd).toBe(0);
      expect(r.stdout, cwd).toContain('src/billing/round.ts was renamed to src/money/round.ts by the staged change');
    }
  });

  it('finds the memories of every memdir, however deep, in one grep of the index', () => {
    const repo = repoWith({ 'src/billing/csv.ts': 'c\n', 'src/other/keep.ts': 'k\n' }, { 'billing.md': topic('Export: src/billing/csv.ts.\n') });
    const deep = 'services/api/.claude/agent-memory/reviewer';
    commitFiles(repo, {
      [`${deep}/MEMORY.md`]: '- [Csv](csv.md) — csv\n',
      [`${deep}/csv.md`]: topic('Export: src/billing/csv.ts.\n', 'Csv'),
      'notes/team/MEMORY.md': '- [Csv](csv.md) — csv\n',
      'notes/team/csv.md': topic('Export: src/billing/csv.ts.\n', 'Csv'),
      'README.md': 'Export: src/billing/csv.ts.\n',
    }, 'more memory');
    git(repo, 'rm', '-q', 'src/billing/csv.ts');
    const trace = join(tempDir('memlint-trace-'), 'trace.txt');
    const r = memlint(repo, ['--staged'], { env: { GIT_TRACE: trace } });
    expect(r.code).toBe(0);
    const reported = r.stdout.split('\n').filter((l) => l.includes('src/billing/csv.ts was deleted by the staged change')).map((l) => l.split(':')[0]);
    expect(reported.sort()).toEqual([`${MEM}/billing.md`, 'notes/team/csv.md', `${deep}/csv.md`]);
    const greps = readFileSync(trace, 'utf8').split('\n').filter((l) => / trace: built-in: git grep /.test(l));
    expect(greps).toHaveLength(1);
    expect(greps[0]).toContain('git grep --cached');
  });

  it('stays on the fast path (no program, no git grep) when the staged change renames and deletes nothing', () => {
    const repo = repoWith({ 'src/billing/round.ts': ROUND }, { 'billing.md': topic('Rounding: src/billing/round.ts.\n') });
    writeFiles(repo, { 'src/billing/round.ts': `${ROUND}// edited\n`, 'src/new.ts': 'n\n' });
    git(repo, 'add', '-A');
    const trace = join(tempDir('memlint-trace-'), 'trace.txt');
    const r = memlint(repo, ['--staged'], { env: { GIT_TRACE: trace } });
    expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
    const calls = readFileSync(trace, 'utf8').split('\n').filter((l) => / trace: built-in: git /.test(l));
    expect(calls).toHaveLength(1);
    expect(calls[0]).toContain('git diff --cached --name-status');
  });

  it('a staged deletion that no memory names costs one git grep and ends there', () => {
    const repo = repoWith({ 'src/billing/round.ts': ROUND, 'tools/gen.ts': 'g\n' }, { 'billing.md': topic('Rounding: src/billing/round.ts.\n') });
    git(repo, 'rm', '-q', 'tools/gen.ts');
    const trace = join(tempDir('memlint-trace-'), 'trace.txt');
    const r = memlint(repo, ['--staged'], { env: { GIT_TRACE: trace } });
    expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
    const calls = readFileSync(trace, 'utf8').split('\n').filter((l) => / trace: built-in: git /.test(l)).map((l) => l.replace(/^.*built-in: git /, '').split(' ')[0]);
    expect(calls).toEqual(['diff', 'grep']);
  });
});

describe('git calls', () => {
  it('one git log and one git diff per run, however many memdirs and missing paths', () => {
    const code: Record<string, string> = {};
    for (let i = 0; i < 20; i++) code[`src/m${i}/f.ts`] = `export const v${i} = ${i};\n`;
    const repo = initRepo(tempDir('memlint-stale-'));
    const memory: Record<string, string> = {};
    for (const dir of [MEM, '.claude/agent-memory/reviewer']) {
      memory[`${dir}/MEMORY.md`] = '- [Map](map.md) — map\n';
      memory[`${dir}/map.md`] = topic(Object.keys(code).map((p) => `- ${p}\n- src/never/${p}\n`).join(''));
    }
    // The 20 folders moved from src/ to lib/ in one commit, as 20 git mv and a commit make it
    // (the same files, under their new paths): the history made by one fast-import.
    const moved = Object.fromEntries(Object.entries(code).map(([p, text]) => [p.replace(/^src\//, 'lib/'), text]));
    importCommits(repo, [
      { branch: 'main', message: 'code', files: code },
      { branch: 'main', message: 'memory', files: memory },
      { branch: 'main', message: 'src to lib', files: moved, deletes: Object.keys(code) },
    ]);
    const trace = join(tempDir('memlint-trace-'), 'trace.txt');
    const r = memlint(repo, ['--format', 'json', '--rule', 'feedback-structure=off', '--rule', 'no-derivable-content=off'], { env: { GIT_TRACE: trace } });
    const results = JSON.parse(r.stdout) as Array<{ messages: Array<{ ruleId: string }> }>;
    expect(results.flatMap((f) => f.messages).filter((m) => m.ruleId === 'no-stale-reference')).toHaveLength(40);
    const calls = readFileSync(trace, 'utf8').split('\n').filter((l) => / trace: built-in: git /.test(l)).map((l) => l.replace(/^.*built-in: git /, '').split(' ')[0]);
    expect(calls.filter((c) => c === 'log')).toHaveLength(1);
    expect(calls.filter((c) => c === 'diff')).toHaveLength(1);
  });
});

describe('git calls per run, not per memory', () => {
  it('a path git ignores now is not stale; which lost paths are ignored, and each file\'s conflict marker size, take at most two calls', () => {
    const code: Record<string, string> = {};
    for (let i = 0; i < 30; i++) Object.assign(code, { [`src/m${i}/f.ts`]: `export const v${i} = ${i};\n`, [`build/out${i}.js`]: `v${i}\n` });
    const memory: Record<string, string> = { [`${MEM}/MEMORY.md`]: '' };
    for (let i = 0; i < 30; i++) {
      // A setext heading's underline could be a conflict marker: its size is asked of git.
      memory[`${MEM}/map${i}.md`] = topic(`Map ${i}\n=======\n\n- src/m${i}/f.ts holds it\n- build/out${i}.js is built from it\n- build/ is where the output goes\n`);
    }
    const moved = Object.fromEntries(Object.entries(code).flatMap(([p, text]) => (p.startsWith('src/') ? [[p.replace(/^src\//, 'lib/'), text]] : [])));
    const repo = initRepo(tempDir('memlint-stale-'));
    importCommits(repo, [
      { branch: 'main', message: 'code', files: code },
      { branch: 'main', message: 'memory', files: memory },
      // src/ moved to lib/; build/ taken out of the repository and ignored from now on.
      { branch: 'main', message: 'src to lib, build ignored', files: { ...moved, '.gitignore': 'build/\n' }, deletes: Object.keys(code) },
    ]);
    const trace = join(tempDir('memlint-trace-'), 'trace.txt');
    const r = memlint(repo, ['--format', 'json', '--rule', 'feedback-structure=off', '--rule', 'no-derivable-content=off'], { env: { GIT_TRACE: trace } });
    const results = JSON.parse(r.stdout) as Array<{ filePath: string; messages: Array<{ ruleId: string; message: string }> }>;
    const stale = results.flatMap((f) => f.messages.filter((m) => m.ruleId === 'no-stale-reference').map((m) => m.message.split(' ')[0]));
    expect(stale.sort()).toEqual(Array.from({ length: 30 }, (_, i) => `src/m${i}/f.ts`).sort());
    const calls = readFileSync(trace, 'utf8').split('\n').filter((l) => / trace: built-in: git /.test(l)).map((l) => l.replace(/^.*built-in: git /, '').split(' ')[0]);
    expect(calls.filter((c) => c === 'check-ignore').length).toBeLessThanOrEqual(2);
    expect(calls.filter((c) => c === 'check-attr').length).toBeLessThanOrEqual(2);
  });
});

describe('commit ids in many memories', () => {
  it('a commit only a deleted branch held is reported, one a branch or a tag reaches is not; two calls for all the memories', () => {
    const repo = repoWith({ 'src/app.ts': 'export const app = 1;\n' }, { 'notes.md': topic('placeholder\n') });
    const full = (rev: string) => git(repo, 'rev-parse', rev).trim();
    git(repo, 'checkout', '-qb', 'spike');
    for (let i = 0; i < 3; i++) commitFiles(repo, { 'spike.txt': `${i}\n` }, `spike ${i}`);
    const lost = [full('HEAD'), full('HEAD~1'), full('HEAD~2')];
    git(repo, 'checkout', '-q', 'main');
    git(repo, 'branch', '-qD', 'spike');
    git(repo, 'checkout', '-qb', 'release');
    commitFiles(repo, { 'release.txt': 'r\n' }, 'release');
    const tagged = full('HEAD');
    git(repo, 'tag', 'v1');
    git(repo, 'checkout', '-q', 'main');
    git(repo, 'branch', '-qD', 'release');
    const kept = full('HEAD');
    const named = [...lost, tagged, kept, `${'deadbee'}f${'0'.repeat(32)}`];
    const memory: Record<string, string> = {};
    for (let i = 0; i < 30; i++) memory[`${MEM}/c${i}.md`] = topic(`Tried in ${named[i % named.length]}.\n`, `C${i}`);
    commitFiles(repo, memory, 'memories');
    const trace = join(tempDir('memlint-trace-'), 'trace.txt');
    const r = memlint(repo, ['--format', 'json', '--rule', 'feedback-structure=off', '--rule', 'no-derivable-content=off'], { env: { GIT_TRACE: trace } });
    const results = JSON.parse(r.stdout) as Array<{ filePath: string; messages: Array<{ ruleId: string; message: string }> }>;
    const reported = results.flatMap((f) => f.messages.filter((m) => m.ruleId === 'no-stale-reference').map((m) => `${f.filePath.slice(repo.length + 1)} ${m.message.split(' ')[1]}`));
    const expected = Array.from({ length: 30 }, (_, i) => i).filter((i) => i % named.length < 3).map((i) => `${MEM}/c${i}.md ${named[i % named.length]}`);
    expect(reported.sort()).toEqual(expected.sort());
    const calls = readFileSync(trace, 'utf8').split('\n').filter((l) => / trace: built-in: git /.test(l)).map((l) => l.replace(/^.*built-in: git /, ''));
    expect(calls.filter((c) => c.startsWith('rev-list')).length).toBeLessThanOrEqual(2);
    expect(calls.filter((c) => c.startsWith('cat-file --batch-check')).length).toBeLessThanOrEqual(2);
    expect(calls.filter((c) => c.startsWith('name-rev'))).toEqual([]);
  });
});

describe('memlint diff lists the memories a range makes stale', () => {
  it('in json (stale), text and markdown; a path lost before the range is not the range\'s doing', async () => {
    const repo = repoWith(
      { 'src/billing/round.ts': ROUND, 'src/billing/old.ts': 'o\n', 'src/billing/csv.ts': 'c\n' },
      { 'billing.md': topic('Rounding: src/billing/round.ts. CSV: src/billing/csv.ts. Legacy: src/billing/old.ts.\n') },
    );
    git(repo, 'rm', '-q', 'src/billing/old.ts');
    git(repo, 'commit', '-qm', 'before the range');
    const base = git(repo, 'rev-parse', 'HEAD').trim();
    git(repo, 'checkout', '-qb', 'topic');
    mv(repo, 'src/billing/round.ts', 'src/money/round.ts');
    git(repo, 'commit', '-qm', 'move rounding');
    const renamed = git(repo, 'rev-parse', 'HEAD').trim();
    git(repo, 'rm', '-q', 'src/billing/csv.ts');
    git(repo, 'commit', '-qm', 'drop csv');
    const deleted = git(repo, 'rev-parse', 'HEAD').trim();

    const json = await memlintInProcess(repo, ['diff', `${base}..HEAD`, '--format', 'json']);
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout) as { memdirs: unknown[]; stale: unknown[] };
    expect(report.memdirs).toEqual([]);
    expect(report.stale).toEqual([
      { memdir: MEM, file: `${MEM}/billing.md`, line: 6, column: 11, path: 'src/billing/round.ts', kind: 'renamed', to: 'src/money/round.ts', commit: renamed, date: date(repo, renamed) },
      { memdir: MEM, file: `${MEM}/billing.md`, line: 6, column: 38, path: 'src/billing/csv.ts', kind: 'deleted', commit: deleted, date: date(repo, deleted) },
    ]);

    const text = (await memlintInProcess(repo, ['diff', `${base}..HEAD`])).stdout;
    expect(text).toContain('stale memory: 2 paths named in memory were renamed or deleted by this range');
    expect(text).toContain(`"${MEM}/billing.md":6:11  "src/billing/round.ts" renamed to "src/money/round.ts" in ${renamed.slice(0, 7)}`);
    expect(text).not.toContain('old.ts');

    const md = (await memlintInProcess(repo, ['diff', `${base}..HEAD`, '--format', 'markdown'])).stdout;
    expect(md).toContain('No memory changes in this range.');
    expect(md).toContain('#### Memories this range makes stale');
    expect(md).toContain(`| \`${MEM}/billing.md\` | 6 | \`src/billing/csv.ts\` | deleted in \`${deleted.slice(0, 7)}\` |`);
  });

  it('a range that renames and deletes nothing has an empty stale list and no stale section', async () => {
    const repo = repoWith({ 'src/a.ts': 'a\n' }, { 'notes.md': topic('See src/a.ts.\n') });
    const base = git(repo, 'rev-parse', 'HEAD').trim();
    commitFiles(repo, { 'src/a.ts': 'a2\n' }, 'edit');
    expect((JSON.parse((await memlintInProcess(repo, ['diff', `${base}..HEAD`, '--format', 'json'])).stdout) as { stale: unknown[] }).stale).toEqual([]);
    expect((await memlintInProcess(repo, ['diff', `${base}..HEAD`, '--format', 'markdown'])).stdout).not.toContain('stale');
  });
});

describe('consolidate and stale memory', () => {
  it('never deletes a memory for being stale; --prune archives one whose every named path is gone, and says so', async () => {
    const repo = repoWith(
      { 'src/a.ts': 'a\n', 'src/b.ts': 'b\n', 'src/x/c.ts': 'c\n', 'src/r.ts': ROUND },
      {
        'gone.md': topic('The parser is in src/a.ts and src/x/c.ts.\n', 'Gone'),
        'half.md': topic('See src/a.ts and src/b.ts.\n', 'Half'),
        'moved.md': topic('Rounding in src/r.ts.\n', 'Moved'),
      },
    );
    git(repo, 'rm', '-q', 'src/a.ts', 'src/x/c.ts');
    mv(repo, 'src/r.ts', 'src/round.ts');
    git(repo, 'commit', '-qm', 'delete and move');
    const del = short(repo);
    const report = await memlintInProcess(repo, ['consolidate', '--force', '--json']);
    expect(report.code).toBe(0);
    const gone = (r: string) => (JSON.parse(r) as { memdirs: Array<{ report: { stale: { gone: Array<{ file: string; paths: string[]; archivedAs?: string }> } } }> }).memdirs[0]!.report.stale.gone;
    expect(gone(report.stdout)).toEqual([{ file: 'gone.md', paths: [`src/a.ts deleted in ${del}`, `src/x/c.ts deleted in ${del}`] }]);
    expect(git(repo, 'status', '--porcelain', '--untracked-files=no', '--', MEM).trim()).toBe('');
    expect((await memlintInProcess(repo, ['consolidate', '--force'])).stdout).toContain('"--prune" archives it; nothing is deleted');

    const pruned = await memlintInProcess(repo, ['consolidate', '--force', '--prune']);
    expect(pruned.stdout).toContain(`1 memory whose every named path is gone archived to .claude/memory-archive (gone.md: src/a.ts deleted in ${del}, src/x/c.ts deleted in ${del})`);
    expect(readFileSync(join(repo, '.claude/memory-archive/gone.md'), 'utf8')).toBe(topic('The parser is in src/a.ts and src/x/c.ts.\n', 'Gone'));
    expect(readFileSync(join(repo, '.claude/memory-archive/ARCHIVE.md'), 'utf8')).toContain(`stale: every path it names is gone (src/a.ts deleted in ${del}, src/x/c.ts deleted in ${del})`);
    const index = readFileSync(join(repo, MEM, 'MEMORY.md'), 'utf8');
    expect(index).not.toContain('gone.md');
    expect(index).toContain('half.md');
    expect(index).toContain('moved.md');
  });
});

/** The git processes a run started, each one's arguments (git's own trace, GIT_TRACE2_EVENT), with its subcommand. */
function gitProcesses(trace: string): Array<{ sub: string; args: string[] }> {
  return readFileSync(trace, 'utf8')
    .split('\n')
    .filter((l) => l.includes('"event":"start"'))
    .map((l) => (JSON.parse(l) as { argv: string[] }).argv.slice(1))
    .map((args) => ({ sub: args.find((a, i) => !a.startsWith('-') && args[i - 1] !== '-c' && args[i - 1] !== '-C')!, args }));
}

/** The paths in name-status or name-only output (every path here has a folder; headers hold none). */
const listedPaths = (out: string) => out.split(/[\0\x01\n\t]/).filter((p) => p.includes('/'));

describe('the history read is bounded by what memories name, not by what history added', () => {
  it('600 files added in history: git returns only renames, deletions and the additions of the loose renames a memory names', () => {
    const fmt = Array.from({ length: 12 }, (_, i) => `export const f${i} = (x: number) => x.toFixed(${i});\n`).join('');
    const repo = repoWith(
      { 'src/billing/round.ts': ROUND, 'src/billing/fmt.ts': fmt, 'src/other/util.ts': fmt.replaceAll('f', 'u') },
      { 'billing.md': topic('Rounding: src/billing/round.ts. Formats: src/billing/fmt.ts.\n') },
    );
    // Three commits of 200 generated files each, then three renames git pairs loosely (75-99%
    // similar): one a memory names, alone of its name in its commit (certain once the commit's
    // additions are seen); one a memory names, with another fmt.ts added beside it (stays loose);
    // one no memory names (its commit is never asked about). One fast-import for the six commits
    // (a deletion and additions each, as git rm, a write and git add -A make them).
    importCommits(repo, [
      // The first continues the repository's main; the rest, fast-import's.
      ...[0, 1, 2].map((b) => ({ branch: 'main', message: `generated ${b}`, ...(b === 0 ? { from: 'main' } : {}), files: Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`gen/b${b}/f${i}.ts`, `export const g${i} = ${b};\n`])) })),
      { branch: 'main', message: 'round to money', deletes: ['src/billing/round.ts'], files: { 'src/money/round.ts': `${ROUND}// banker's rounding\n` } },
      { branch: 'main', message: 'fmt to ui', deletes: ['src/billing/fmt.ts'], files: { 'src/ui/format/fmt.ts': `${fmt}export const extra = 1;\n`, 'src/ui/other/fmt.ts': 'export const other = "unrelated";\n' } },
      { branch: 'main', message: 'util to lib', deletes: ['src/other/util.ts'], files: { 'lib/util.ts': `${fmt.replaceAll('f', 'u')}export const more = 2;\n` } },
    ]);
    const [roundCommit, fmtCommit] = git(repo, 'rev-parse', 'HEAD~2', 'HEAD~1').trim().split('\n');
    const scores = git(repo, 'log', '-M', '--diff-filter=R', '--name-status', '--format=');
    for (const s of scores.match(/^R\d+/gm)!) expect(Number(s.slice(1)), scores).toBeGreaterThanOrEqual(75);
    expect(scores).not.toMatch(/^R100/m);

    const trace = join(tempDir('memlint-trace-'), 'trace.json');
    const r = memlint(repo, [MEM, '--format', 'json', '--rule', 'feedback-structure=off', '--rule', 'no-derivable-content=off'], { env: { GIT_TRACE2_EVENT: trace } });
    const files = JSON.parse(r.stdout) as Array<{ filePath: string; fixableWarningCount: number; messages: Array<{ ruleId: string; message: string }> }>;
    const billing = files.find((f) => f.filePath.endsWith('billing.md'))!;
    expect(billing.messages.filter((m) => m.ruleId === 'no-stale-reference').map((m) => m.message.replace(/ in [0-9a-f]{7} \(\d{4}-\d\d-\d\d\)/, ''))).toEqual([
      'src/billing/round.ts was renamed to src/money/round.ts: the memory points to a path that no longer exists',
      'src/billing/fmt.ts was moved or removed; git pairs it with src/ui/format/fmt.ts, a loose match that --fix leaves to you: the memory points to a path that no longer exists',
    ]);
    // The certain rename is the one fix (its memory has no other fixable finding).
    expect(billing.fixableWarningCount).toBe(1);

    const history = gitProcesses(trace).filter((p) => p.sub === 'log' || p.sub === 'show');
    expect(history.map((p) => p.sub)).toEqual(['log', 'show']);
    // The one question about additions names the two commits a memory's path leads through.
    const shown = history[1]!.args.filter((a) => /^[0-9a-f]{40}$/.test(a));
    expect(shown.sort()).toEqual([roundCommit, fmtCommit].sort());
    // What git returned to those two calls, asked again: 9 paths, none of the 600 generated.
    const returned = history.flatMap((p) => listedPaths(git(repo, ...p.args)));
    expect(returned.sort()).toEqual(['lib/util.ts', 'src/billing/fmt.ts', 'src/billing/round.ts', 'src/money/round.ts', 'src/money/round.ts', 'src/other/util.ts', 'src/ui/format/fmt.ts', 'src/ui/format/fmt.ts', 'src/ui/other/fmt.ts']);
    // For scale, what the additions cost the one history read before: every file ever added.
    expect(listedPaths(git(repo, 'log', '-M', '--diff-filter=ADR', '--name-status', '-z', '--format=%x01%H %cs')).length).toBeGreaterThan(600);
  });
});
