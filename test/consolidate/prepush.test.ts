// `memlint consolidate --pre-push`, fed git's pre-push stdin: through the built CLI where the
// launcher answers (no memory pushed, HUSKY=0, a deleted ref, a project's own MEMORY.md, Claude
// Code's lock), else main() in this process given the push the launcher reads from that stdin and
// hands on (src/consolidate/push-range.ts, test/helpers/in-process.ts).
import { describe, expect, it } from 'vitest';
import { memlintInProcess } from '../helpers/in-process.js';
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { CLI, git, importCommits, initRepo, memlint, tempDir, writeFiles } from '../helpers/repo.js';
import { NO_PUSHED_MEMORY, pushSource } from '../../src/consolidate/push-range.js';
import type { Given } from '../../src/commands/given.js';

const MEM = '.claude/memory';
const topic = (name: string, type: string, desc: string, body: string) => `---\nname: ${name}\ndescription: ${desc}\ntype: ${type}\n---\n\n${body}`;
const ZERO = '0'.repeat(40);

/**
 * A repository whose memdir is due (no consolidation yet, 5 memory commits) and would change: made
 * once for each onPush value and copied (cp -r) for each test that asks for it.
 */
const made = new Map<string | undefined, { dir: string; base: string }>();
function dueRepo(onPush?: string): { dir: string; base: string } {
  let once = made.get(onPush);
  if (!once) made.set(onPush, (once = makeDueRepo(onPush)));
  const dir = tempDir();
  cpSync(once.dir, dir, { recursive: true });
  return { dir, base: once.base };
}

function makeDueRepo(onPush?: string): { dir: string; base: string } {
  const dir = initRepo();
  importCommits(dir, [
    { branch: 'main', message: 'init', files: { 'README.md': 'app\n', ...(onPush ? { '.memlintrc.json': JSON.stringify({ consolidate: { onPush } }) } : {}) } },
    {
      branch: 'main',
      message: 'memory',
      files: { [`${MEM}/MEMORY.md`]: '- [Role](user_role.md) — Backend lead\n', [`${MEM}/user_role.md`]: topic('Role', 'user', 'Backend lead', 'Reads diffs first.\n') },
    },
    ...[0, 1, 2, 3].map((i) => ({ branch: 'main', message: `log ${i}`, files: { [`${MEM}/logs/2026/11/2026-11-2${i}.md`]: `- 09:00 — paired on the retry job ${i} [user_role]\n` } })),
  ]);
  return { dir, base: git(dir, 'rev-parse', 'HEAD~5').trim() };
}

/** git's command in a traced argv: the first word after the options (`-c key=value` included). */
function subcommand(argv: string[]): string {
  for (let i = 1; i < argv.length; i++) {
    if (argv[i] === '-c' || argv[i] === '-C') i++;
    else if (!argv[i]!.startsWith('-')) return argv[i]!;
  }
  return '';
}

const stdin = (dir: string, base: string, ref = 'refs/heads/main') => `${ref} ${git(dir, 'rev-parse', ref).trim()} ${ref} ${base}\n`;
const env = { MEMLINT_TODAY: '2026-11-29', HUSKY: '' };

/** What the launcher hands the program for this pre-push stdin: the push it read. */
function handed(dir: string, input: string): Given {
  const push = pushSource({ cwd: dir, env: process.env }, input);
  if (push === NO_PUSHED_MEMORY) throw new Error(`the launcher would have answered this push itself: ${input}`);
  return { push };
}

describe('consolidate --pre-push', () => {
  it('says in one line that the memory is due and lets the push go on, changing nothing', async () => {
    const { dir, base } = dueRepo();
    const head = git(dir, 'rev-parse', 'HEAD').trim();
    const r = await memlintInProcess(dir, ['consolidate', '--pre-push'], { given: handed(dir, stdin(dir, base)), env });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('memlint: .claude/memory is due for consolidation and was pushed as it is; run "memlint consolidate .claude/memory" and commit it as "memory: consolidate" (the post-commit hook does so after your next memory commit)\n');
    expect(git(dir, 'rev-parse', 'HEAD').trim()).toBe(head);
    expect(git(dir, 'status', '--porcelain')).toBe('');
    // "consolidate", the value that was the default before, reads as the default.
    const old = dueRepo('consolidate');
    const again = await memlintInProcess(old.dir, ['consolidate', '--pre-push'], { given: handed(old.dir, stdin(old.dir, old.base)), env });
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/is due for consolidation and was pushed as it is/);
    // A value it does not know: a config error, which a hook never stops git for: one line, and
    // the push goes on (exit 0); run by hand, consolidate refuses it (exit 2).
    const bad = dueRepo('sometimes');
    const hooked = await memlintInProcess(bad.dir, ['consolidate', '--pre-push'], { given: handed(bad.dir, stdin(bad.dir, bad.base)), env });
    const allowed = `memlint: config ${join(bad.dir, '.memlintrc.json')}: consolidate.onPush is "sometimes"; use "advise", "check" or "block"`;
    expect(hooked).toMatchObject({ code: 0, stderr: `${allowed}; the pre-push hook checked the pushed memory for conflict markers and secrets with the default settings, consolidated nothing, and let git go on (fix the config; "memlint doctor" checks it)\n` });
    const refused = await memlintInProcess(bad.dir, ['consolidate'], { env });
    expect(refused).toMatchObject({ code: 2, stderr: `${allowed}\n` });
  });

  it('with consolidate.onPush "block" consolidates a due memdir, commits "memory: consolidate" and asks for a second push', async () => {
    const { dir, base } = dueRepo('block');
    const head = git(dir, 'rev-parse', 'HEAD').trim();
    const r = await memlintInProcess(dir, ['consolidate', '--pre-push'], { given: handed(dir, stdin(dir, base)), env });
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^memlint: nothing was pushed: the memory was due, so memlint committed "memory: consolidate" [0-9a-f]{7} \(\.claude\/memory\) on top of your commits; push again to send them all\n$/);
    expect(git(dir, 'log', '-1', '--format=%s')).toBe('memory: consolidate\n');
    expect(git(dir, 'rev-parse', 'HEAD~1').trim()).toBe(head);
    // Only the lock is left uncommitted (this repository does not ignore it yet): never committed.
    expect(git(dir, 'status', '--porcelain')).toBe('?? .claude/memory/.consolidate-lock\n');
    expect(git(dir, 'ls-tree', '-r', '--name-only', 'HEAD')).not.toContain('.consolidate-lock');
    expect(readFileSync(join(dir, MEM, 'user_role.md'), 'utf8')).toContain('- paired on the retry job 0 (2026-11-20)');
    // The second push passes: consolidation just ran.
    const again = await memlintInProcess(dir, ['consolidate', '--pre-push'], { given: handed(dir, stdin(dir, base)), env });
    expect(again).toMatchObject({ code: 0, stderr: '' });
  });

  it('with consolidate.onPush "check" stops the push with the advice, changing nothing', async () => {
    const { dir, base } = dueRepo('check');
    const head = git(dir, 'rev-parse', 'HEAD').trim();
    const r = await memlintInProcess(dir, ['consolidate', '--pre-push'], { given: handed(dir, stdin(dir, base)), env });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('memlint: nothing was pushed: .claude/memory needs consolidation: run "memlint consolidate .claude/memory", commit it as "memory: consolidate", then push again\n');
    expect(git(dir, 'rev-parse', 'HEAD').trim()).toBe(head);
    expect(git(dir, 'status', '--porcelain')).toBe('');
  });

  it('quotes a memory folder whose path needs it in the command it advises, which then runs as given in sh', async () => {
    const mem = "packages/my pkg/.claude/memory";
    const dir = initRepo();
    importCommits(dir, [
      { branch: 'main', message: 'init', files: { 'README.md': 'app\n', '.memlintrc.json': JSON.stringify({ consolidate: { onPush: 'check' } }) } },
      { branch: 'main', message: 'memory', files: { [`${mem}/MEMORY.md`]: '- [Role](user_role.md) — Backend lead\n', [`${mem}/user_role.md`]: topic('Role', 'user', 'Backend lead', 'Reads diffs first.\n') } },
      ...[0, 1, 2, 3].map((i) => ({ branch: 'main', message: `log ${i}`, files: { [`${mem}/logs/2026/11/2026-11-2${i}.md`]: `- 09:00 — paired on the retry job ${i} [user_role]\n` } })),
    ]);
    const base = git(dir, 'rev-parse', 'HEAD~5').trim();
    const r = await memlintInProcess(dir, ['consolidate', '--pre-push'], { given: handed(dir, stdin(dir, base)), env });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`memlint: nothing was pushed: ${mem} needs consolidation: run "memlint consolidate '${mem}'", commit it as "memory: consolidate", then push again\n`);
    const command = /run "(memlint consolidate .*?)", commit/.exec(r.stderr)![1]!;
    const run = spawnSync('sh', ['-c', command.replace(/^memlint /, '"$NODE" "$CLI" ')], { cwd: dir, encoding: 'utf8', env: { ...process.env, ...env, NODE: process.execPath, CLI } });
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(readFileSync(join(dir, mem, 'user_role.md'), 'utf8')).toContain('- paired on the retry job 0 (2026-11-20)');
  });

  it('skips a memdir with uncommitted changes', async () => {
    const { dir, base } = dueRepo();
    writeFiles(dir, { [`${MEM}/user_role.md`]: topic('Role', 'user', 'Backend lead', 'Reads diffs first. Edited.\n') });
    const r = await memlintInProcess(dir, ['consolidate', '--pre-push'], { given: handed(dir, stdin(dir, base)), env });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('memlint: skipped consolidating .claude/memory: it has uncommitted changes\n');
    expect(git(dir, 'log', '-1', '--format=%s')).toBe('log 3\n');
  });

  it('passes at once when no memory is in the pushed range, when HUSKY=0, and for a deleted ref', () => {
    const { dir, base } = dueRepo();
    writeFiles(dir, { 'src.txt': 'code\n' });
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'code');
    const head = git(dir, 'rev-parse', 'HEAD').trim();
    expect(memlint(dir, ['consolidate', '--pre-push'], { input: `refs/heads/main ${head} refs/heads/main ${git(dir, 'rev-parse', 'HEAD~1').trim()}\n`, env })).toMatchObject({ code: 0, stderr: '' });
    expect(memlint(dir, ['consolidate', '--pre-push'], { input: stdin(dir, base), env: { ...env, HUSKY: '0' } })).toMatchObject({ code: 0, stderr: '' });
    expect(memlint(dir, ['consolidate', '--pre-push'], { input: `(delete) ${ZERO} refs/heads/old ${head}\n`, env })).toMatchObject({ code: 0, stderr: '' });
    expect(git(dir, 'rev-parse', 'HEAD').trim()).toBe(head);
    // The launcher answers only the hook's own words: an unknown option is refused, one line, exit 2.
    const bogus = memlint(dir, ['consolidate', '--pre-push', '--bogus'], { input: '', env });
    expect(bogus).toMatchObject({ code: 2, stdout: '' });
    expect(bogus.stderr).toMatch(/^memlint: [^\n]*--bogus[^\n]*\n$/);
    expect(memlint(dir, ['consolidate', '--pre-push', '--config', 'none.json', 'origin', 'file:///nowhere'], { input: '', env })).toMatchObject({ code: 0, stderr: '' });
  });

  it("leaves alone a MEMORY.md that is not a memory index (a project's own doc)", () => {
    const dir = initRepo();
    importCommits(dir, [
      { branch: 'main', message: 'init', files: { 'README.md': 'app\n' } },
      ...[0, 1, 2, 3, 4].map((i) => ({ branch: 'main', message: `docs ${i}`, files: { 'docs/MEMORY.md': `# How the cache uses memory\n\nSee [the design](https://example.com/${i}.md).\n`, 'docs/notes.md': `note ${i}\n` } })),
    ]);
    const base = git(dir, 'rev-parse', 'HEAD~5').trim();
    expect(memlint(dir, ['consolidate', '--pre-push'], { input: stdin(dir, base), env })).toMatchObject({ code: 0, stderr: '' });
    expect(git(dir, 'status', '--porcelain')).toBe('');
  });

  it('looks at the memory folders `memlint consolidate` does: a folder config memoryDirs names counts', async () => {
    const dir = initRepo();
    importCommits(dir, [
      { branch: 'main', message: 'init', files: { 'README.md': 'app\n', '.memlintrc.json': JSON.stringify({ memoryDirs: ['team/notes'] }) } },
      // An index that links to nothing beside it: memory only because config says so.
      { branch: 'main', message: 'notes', files: { 'team/notes/MEMORY.md': '# Team notes\n', 'team/notes/user_role.md': topic('Role', 'user', 'Backend lead', 'Reads diffs first.\n') } },
      ...[0, 1, 2, 3].map((i) => ({ branch: 'main', message: `log ${i}`, files: { [`team/notes/logs/2026/11/2026-11-2${i}.md`]: `- 09:00 — paired on the retry job ${i}\n` } })),
    ]);
    const base = git(dir, 'rev-parse', 'HEAD~5').trim();
    expect((await memlintInProcess(dir, ['consolidate', '--check'], { env })).code).toBe(1);
    const r = await memlintInProcess(dir, ['consolidate', '--pre-push'], { given: handed(dir, stdin(dir, base)), env });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^memlint: team\/notes is due for consolidation and was pushed as it is/);
  });

  it('looks at a new branch as the commits no remote has', async () => {
    const { dir } = dueRepo('block');
    const r = await memlintInProcess(dir, ['consolidate', '--pre-push'], { given: handed(dir, `refs/heads/main ${git(dir, 'rev-parse', 'HEAD').trim()} refs/heads/main ${ZERO}\n`), env });
    expect(r.code).toBe(1);
    expect(git(dir, 'log', '-1', '--format=%s')).toBe('memory: consolidate\n');
  });

  it('falls back to the commits no remote has when the remote commit is unknown here (force-push)', async () => {
    const { dir } = dueRepo('block');
    const r = await memlintInProcess(dir, ['consolidate', '--pre-push'], { given: handed(dir, `refs/heads/main ${git(dir, 'rev-parse', 'HEAD').trim()} refs/heads/main ${'1234567'.repeat(5)}12345\n`), env });
    expect(r.code).toBe(1);
    expect(git(dir, 'log', '-1', '--format=%s')).toBe('memory: consolidate\n');
  });

  it('leaves a push of a branch that is not checked out alone (the worktree is not what it pushes)', async () => {
    const { dir, base } = dueRepo();
    git(dir, 'switch', '-q', '-c', 'elsewhere');
    writeFiles(dir, { 'src.txt': 'code\n' });
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'code');
    const head = git(dir, 'rev-parse', 'HEAD').trim();
    const r = await memlintInProcess(dir, ['consolidate', '--pre-push'], { given: handed(dir, stdin(dir, base, 'refs/heads/main')), env });
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(git(dir, 'rev-parse', 'HEAD').trim()).toBe(head);
    expect(git(dir, 'status', '--porcelain')).toBe('');
  });

  it('leaves a memdir alone while Claude Code holds its lock', async () => {
    const { dir, base } = dueRepo('block');
    const { spawn } = await import('node:child_process');
    const holder = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      writeFileSync(join(dir, MEM, '.consolidate-lock'), String(holder.pid));
      git(dir, 'commit', '-q', '--allow-empty', '-m', 'empty');
      const r = memlint(dir, ['consolidate', '--pre-push'], { input: stdin(dir, base), env });
      expect(r).toMatchObject({ code: 0, stderr: '' });
      expect(git(dir, 'log', '-1', '--format=%s')).toBe('empty\n');
    } finally {
      holder.kill('SIGKILL');
    }
  });

  it('never leaves uncommitted edits: a commit that fails is undone', () => {
    const { dir, base } = dueRepo('block');
    git(dir, 'config', 'user.useConfigOnly', 'true');
    git(dir, 'config', '--unset', 'user.email');
    git(dir, 'config', '--unset', 'user.name');
    const r = memlint(dir, ['consolidate', '--pre-push'], {
      input: stdin(dir, base),
      env: { ...env, GIT_AUTHOR_NAME: '', GIT_AUTHOR_EMAIL: '', GIT_COMMITTER_NAME: '', GIT_COMMITTER_EMAIL: '', EMAIL: '', HOME: dir, XDG_CONFIG_HOME: dir },
    });
    expect(r.stderr).toMatch(/^memlint: consolidation failed for \.claude\/memory: could not commit the consolidation .*; nothing was left changed\n$/);
    expect(r.code).toBe(0);
    expect(git(dir, 'status', '--porcelain')).toBe('');
    expect(git(dir, 'log', '-1', '--format=%s')).toBe('log 3\n');
  });

  it("asks git where the repository is no more than once: pre-push uses the launcher's, post-commit its own", async () => {
    // Counted from git's own trace (GIT_TRACE2_EVENT): `rev-parse ... --git-common-dir`, the question.
    const asked = async (dir: string, args: string[], given?: Given) => {
      const trace = join(tempDir('memlint-trace-'), 'trace.json');
      await memlintInProcess(dir, args, { given, env: { ...env, GIT_TRACE2_EVENT: trace } });
      if (!existsSync(trace)) return 0;
      return readFileSync(trace, 'utf8').split('\n').filter((l) => l.includes('"event":"start"') && l.includes('"--git-common-dir"')).length;
    };
    const { dir, base } = dueRepo();
    expect(await asked(dir, ['consolidate', '--pre-push'], handed(dir, stdin(dir, base)))).toBe(0);
    // HEAD changed memory: post-commit looks at the memdirs it touched.
    expect(await asked(dir, ['consolidate', '--post-commit'])).toBe(1);
  });

  it("post-commit through the CLI asks git for the commit's files once: the launcher hands them on", () => {
    const { dir } = dueRepo();
    const trace = join(tempDir('memlint-trace-'), 'trace.json');
    const r = memlint(dir, ['consolidate', '--post-commit'], { env: { ...env, GIT_TRACE2_EVENT: trace } });
    expect(r).toMatchObject({ code: 0, stdout: '' });
    // The program ran past the launcher: the due memdir was consolidated and committed.
    expect(git(dir, 'log', '-1', '--format=%s')).toBe('memory: consolidate\n');
    const starts = readFileSync(trace, 'utf8').split('\n').filter((l) => l.includes('"event":"start"'));
    expect(starts.filter((l) => l.includes('"diff-tree"'))).toHaveLength(1);
    // Where HEAD is, and what is in progress, asked once too: by the launcher, for the program.
    expect(starts.filter((l) => l.includes('"--show-toplevel"') && l.includes('"--symbolic-full-name","HEAD"'))).toHaveLength(1);
  });

  it('post-commit on a detached HEAD (a rebase replaying its commits) ends before the program loads', () => {
    const { dir } = dueRepo();
    const head = git(dir, 'rev-parse', 'HEAD').trim();
    git(dir, 'switch', '-q', '--detach', 'HEAD');
    const trace = join(tempDir('memlint-trace-'), 'trace.json');
    const r = memlint(dir, ['consolidate', '--post-commit'], { env: { ...env, GIT_TRACE2_EVENT: trace } });
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(git(dir, 'rev-parse', 'HEAD').trim()).toBe(head);
    // Two questions, both the launcher's (the commit's files; where HEAD stands): the program,
    // which would go on to read the config and the memory folders, never started.
    const starts = readFileSync(trace, 'utf8').split('\n').filter((l) => l.includes('"event":"start"'));
    expect(starts).toHaveLength(2);
    expect(starts.filter((l) => l.includes('"diff-tree"'))).toHaveLength(1);
    expect(starts.filter((l) => l.includes('"--symbolic-full-name","HEAD"'))).toHaveLength(1);
  });

  it('post-commit when nothing is due asks git only what the gates need, and prints nothing', () => {
    // Four memory commits, one short of the gate: the consolidation itself (its plan, the writer,
    // the user's agent command from git config, the status of uncommitted edits) is never reached.
    const dir = initRepo();
    importCommits(dir, [
      { branch: 'main', message: 'init', files: { 'README.md': 'app\n' } },
      { branch: 'main', message: 'memory', files: { [`${MEM}/MEMORY.md`]: '- [Role](user_role.md) — Backend lead\n', [`${MEM}/user_role.md`]: topic('Role', 'user', 'Backend lead', 'Reads diffs first.\n') } },
      ...[0, 1, 2].map((i) => ({ branch: 'main', message: `log ${i}`, files: { [`${MEM}/logs/2026/11/2026-11-2${i}.md`]: `- 09:00 — paired on the retry job ${i} [user_role]\n` } })),
    ]);
    const trace = join(tempDir('memlint-trace-'), 'trace.json');
    const r = memlint(dir, ['consolidate', '--post-commit'], { env: { ...env, GIT_TRACE2_EVENT: trace } });
    expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(git(dir, 'log', '-1', '--format=%s')).toBe('log 2\n');
    const commands = readFileSync(trace, 'utf8').split('\n').filter((l) => l.includes('"event":"start"')).map((l) => subcommand((JSON.parse(l) as { argv: string[] }).argv));
    // The launcher's two (the commit's files; where HEAD stands), the memdirs, the commits since.
    expect(commands).toEqual(['diff-tree', 'rev-parse', 'ls-files', 'rev-list']);
  });
});
