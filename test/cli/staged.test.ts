// `memlint --staged`: what will be committed, not the working tree; linked worktrees; index v4.
// What the program makes of the staged change runs in this process (test/helpers/in-process.ts: the
// same main(), which reads the staged change itself when no launcher handed it down); what the
// launcher does first (dist/cli.js: its silent early exit before any config is read, the hints it
// hands down, a PATH or no repository refused) runs the built CLI, as do the launcher's own tests
// (staged-launcher.test.ts).
import { readFileSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memlintInProcess } from '../helpers/in-process.js';
import { git, initRepo, memlint, tempDir, writeFiles } from '../helpers/repo.js';
import { CLEAN_INDEX, cleanRepo, topic } from './setup.js';

const BAD_TYPE = (name: string) => `---\nname: ${name}\ndescription: ${name} in one line\ntype: preference\n---\nBody.\n`;

const messages = (stdout: string) =>
  (JSON.parse(stdout) as Array<{ filePath: string; messages: Array<{ ruleId: string; line: number }> }>).flatMap((r) => r.messages.map((m) => `${r.filePath}:${m.line} ${m.ruleId}`));

describe('--staged', () => {
  it('lints the staged blob, not the working tree', async () => {
    const { repo, memdir } = cleanRepo();
    writeFiles(memdir, { 'project_deploys.md': BAD_TYPE('Deploys') });
    git(repo, 'add', '.claude/memory/project_deploys.md');
    // The working tree is fixed after staging: the commit would still hold the bad version.
    writeFiles(memdir, { 'project_deploys.md': topic('Deploys') });
    expect((await memlintInProcess(repo, [])).code).toBe(0);
    const r = await memlintInProcess(repo, ['--staged', '--format', 'json']);
    expect(r.code).toBe(1);
    expect(messages(r.stdout)).toEqual([`${join(memdir, 'project_deploys.md')}:4 frontmatter-type`]);
  });

  it("reads its pathspecs as written, whatever the user's GIT_*_PATHSPECS say", async () => {
    for (const variable of ['GIT_GLOB_PATHSPECS', 'GIT_NOGLOB_PATHSPECS', 'GIT_LITERAL_PATHSPECS']) {
      const { repo, memdir } = cleanRepo();
      writeFiles(memdir, { 'project_deploys.md': BAD_TYPE('Deploys') });
      git(repo, 'add', '.claude/memory/project_deploys.md');
      const env = { [variable]: '1' };
      const inProcess = await memlintInProcess(repo, ['--staged', '--format', 'json'], { env });
      expect([inProcess.code, inProcess.stderr], variable).toEqual([1, '']);
      expect(messages(inProcess.stdout), variable).toEqual([`${join(memdir, 'project_deploys.md')}:4 frontmatter-type`]);
      // The launcher's own path, as the pre-commit hook starts it.
      const launched = memlint(repo, ['--staged', '--format', 'json'], { env });
      expect([launched.code, launched.stderr], variable).toEqual([1, '']);
      expect(messages(launched.stdout), variable).toEqual([`${join(memdir, 'project_deploys.md')}:4 frontmatter-type`]);
    }
  });

  it('says "git add" when the working tree already fixes what is staged, "--fix" otherwise', () => {
    const { repo, memdir } = cleanRepo();
    const index = readFileSync(join(memdir, 'MEMORY.md'), 'utf8');
    const line = index.split('\n').find((l) => l.startsWith('- ['))!;
    writeFiles(memdir, { 'MEMORY.md': `${index}${line}\n` });
    git(repo, 'add', '.claude/memory/MEMORY.md');
    const before = memlint(repo, ['--staged']);
    expect(before.code).toBe(1);
    expect(before.stdout).toContain('1 of them can be settled by `memlint --fix`');
    expect(before.stdout).not.toContain('git add');
    // Fixed in the working tree, not staged: the commit would still hold the duplicate.
    writeFiles(memdir, { 'MEMORY.md': index });
    const after = memlint(repo, ['--staged']);
    expect(after.code).toBe(1);
    expect(after.stdout).not.toContain('memlint --fix');
    expect(after.stdout).toContain('the working tree already fixes .claude/memory/MEMORY.md: stage it with `git add .claude/memory/MEMORY.md`');
  });

  it('does not take a file left untracked (git rm --cached) or never added for one the index has', async () => {
    const { repo, memdir } = cleanRepo();
    const index = readFileSync(join(memdir, 'MEMORY.md'), 'utf8');
    // The topic leaves the index but stays on disk: the staged index links a file the commit lacks.
    git(repo, 'rm', '-q', '--cached', '.claude/memory/project_deploys.md');
    const removed = await memlintInProcess(repo, ['--staged']);
    expect(removed.code).toBe(1);
    expect(removed.stdout).toMatch(/^\.claude\/memory\/MEMORY\.md:\d+:\d+ +error +Entry links to project_deploys\.md, which does not exist in the memory folder +index-link-target$/m);
    // Staging MEMORY.md would change nothing: no "git add" advice for it.
    expect(removed.stdout).not.toContain('git add');
    // A new topic written but not added, which the staged index already links.
    git(repo, 'reset', '-q');
    writeFiles(memdir, { 'MEMORY.md': `${index}- [Freeze](project_freeze.md) — the code freeze\n`, 'project_freeze.md': topic('Freeze') });
    git(repo, 'add', '.claude/memory/MEMORY.md');
    const unadded = await memlintInProcess(repo, ['--staged']);
    expect(unadded.code).toBe(1);
    expect(unadded.stdout).toContain('Entry links to project_freeze.md, which does not exist in the memory folder');
    expect(unadded.stdout).not.toContain('git add');
    expect(unadded.stdout).not.toContain('project_freeze.md:');
  });

  it('passes a good staged version while the working tree is broken', async () => {
    const { repo, memdir } = cleanRepo();
    writeFiles(memdir, { 'project_deploys.md': topic('Deploys', 'project', 'Deploys wait.\n\n**Why:** reasons.\n**How to apply:** always.\n') });
    git(repo, 'add', '-A');
    writeFiles(memdir, { 'project_deploys.md': BAD_TYPE('Deploys') });
    expect((await memlintInProcess(repo, [])).code).toBe(1);
    expect(await memlintInProcess(repo, ['--staged'])).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('exits at once, silently, when nothing staged is memory', async () => {
    const { repo, memdir } = cleanRepo();
    writeFiles(memdir, { 'project_deploys.md': BAD_TYPE('Deploys') }); // broken, but not staged
    expect(memlint(repo, ['--staged'])).toEqual({ code: 0, stdout: '', stderr: '' });
    writeFiles(repo, { 'src/app.ts': 'export {};\n', 'docs/guide.md': '# Guide\n' });
    git(repo, 'add', 'src/app.ts', 'docs/guide.md');
    expect(memlint(repo, ['--staged'])).toEqual({ code: 0, stdout: '', stderr: '' });
    // Machine formats still get a well-formed, empty report.
    expect(await memlintInProcess(repo, ['--staged', '--format', 'json'])).toEqual({ code: 0, stdout: '[]\n', stderr: '' });
    expect(JSON.parse((await memlintInProcess(repo, ['--staged', '--format', 'sarif'])).stdout).runs[0].results).toEqual([]);
    // It answers before even reading the config: a broken one does not matter then.
    writeFiles(repo, { '.memlintrc.json': '{"rules":' });
    expect(memlint(repo, ['--staged'])).toEqual({ code: 0, stdout: '', stderr: '' });
    expect((await memlintInProcess(repo, [])).code).toBe(2);
  });

  it('lints only the memdirs the staged change touches', async () => {
    const { repo, memdir } = cleanRepo();
    // A second memdir, committed with a problem.
    writeFiles(repo, { 'memory/MEMORY.md': '- [X](x.md) — x\n- [Gone](gone.md) — gone\n', 'memory/x.md': topic('X') });
    git(repo, 'add', 'memory');
    git(repo, 'commit', '-qm', 'second memdir');
    writeFiles(memdir, { 'project_freeze.md': topic('Freeze') });
    git(repo, 'add', '.claude/memory/project_freeze.md');
    const r = await memlintInProcess(repo, ['--staged', '--format', 'json']);
    // The new topic has no entry in the staged index; the other memdir is not looked at.
    expect(messages(r.stdout)).toEqual([`${join(memdir, 'project_freeze.md')}:1 index-orphan`]);
    expect(r.code).toBe(1);
  });

  it('sees a staged deletion: the index entry now dangles, and the deleted memory is named (no-memory-loss)', async () => {
    const { repo, memdir } = cleanRepo();
    git(repo, 'rm', '-q', '.claude/memory/project_deploys.md');
    const r = await memlintInProcess(repo, ['--staged', '--format', 'json']);
    expect(r.code).toBe(1);
    expect(messages(r.stdout)).toEqual([`${join(memdir, 'MEMORY.md')}:1 no-memory-loss`, `${join(memdir, 'MEMORY.md')}:4 index-link-target`]);
  });

  it('judges links against what is staged: a topic only in the working tree does not count', async () => {
    const { repo, memdir } = cleanRepo();
    writeFiles(memdir, {
      'MEMORY.md': '# Memory\n\n## Project\n- [Deploys](project_deploys.md) — deploys go out on Tuesdays\n- [Café](café.md) — not staged yet\n',
      'café.md': topic('Café'),
    });
    git(repo, 'add', '.claude/memory/MEMORY.md');
    expect(messages((await memlintInProcess(repo, ['--staged', '--format', 'json'])).stdout)).toEqual([`${join(memdir, 'MEMORY.md')}:5 index-link-target`]);
    git(repo, 'add', '.claude/memory/café.md');
    expect(await memlintInProcess(repo, ['--staged'])).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('does not lint a staged MEMORY.md that discovery would skip (another agent’s layout)', async () => {
    const { repo } = cleanRepo();
    writeFiles(repo, { 'docs/MEMORY.md': '# Notes about agent memory\n- [Design](../README.md)\n- what the agents remember\n', 'README.md': '# R\n' });
    git(repo, 'add', '-A');
    expect(await memlintInProcess(repo, [])).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(await memlintInProcess(repo, ['--staged'])).toEqual({ code: 0, stdout: '', stderr: '' });
    // Named in config memoryDirs, it is a memdir: then --staged lints it like a plain run.
    writeFiles(repo, { '.memlintrc.json': JSON.stringify({ memoryDirs: ['docs'] }) });
    expect((await memlintInProcess(repo, [])).code).toBe(1);
    expect((await memlintInProcess(repo, ['--staged'])).code).toBe(1);
  });

  it('works before the first commit, and from a subfolder', async () => {
    const repo = initRepo(tempDir('memlint-first-'));
    const memdir = join(repo, '.claude', 'memory');
    writeFiles(memdir, { 'MEMORY.md': '- [A](a.md) — a\n', 'a.md': BAD_TYPE('A') });
    git(repo, 'add', '-A');
    for (const cwd of [repo, join(repo, '.claude')]) {
      const r = await memlintInProcess(cwd, ['--staged', '--format', 'json']);
      expect(r.code).toBe(1);
      expect(messages(r.stdout)).toEqual([`${join(memdir, 'a.md')}:4 frontmatter-type`]);
    }
  });

  it('reads a staged symlink as the file it points to inside the repository, never out of it', async () => {
    const { repo, memdir } = cleanRepo();
    symlinkSync('project_deploys.md', join(memdir, 'alias.md'));
    symlinkSync('/etc/hostname', join(memdir, 'out.md'));
    writeFiles(memdir, { 'MEMORY.md': `${CLEAN_INDEX}- [Alias](alias.md) — the same memory\n` });
    git(repo, 'add', '-A');
    const r = await memlintInProcess(repo, ['--staged', '--format', 'json']);
    const msgs = (JSON.parse(r.stdout) as Array<{ filePath: string; messages: Array<{ ruleId: string | null; message: string }> }>).map((x) => [
      x.filePath.slice(memdir.length + 1),
      x.messages.map((m) => `${m.ruleId}: ${m.message}`),
    ]);
    expect(msgs).toEqual([
      ['MEMORY.md', []],
      ['alias.md', []],
      ['out.md', ['null: symlink pointing outside the repository; memlint does not follow it']],
    ]);
    // The same verdicts as on the working tree.
    const wt = (JSON.parse((await memlintInProcess(repo, ['--format', 'json'])).stdout) as Array<{ filePath: string; messages: Array<{ message: string }> }>).filter((x) => x.messages.length);
    expect(wt.map((x) => [x.filePath.slice(memdir.length + 1), x.messages.map((m) => m.message)])).toEqual([['out.md', ['symlink pointing outside the repository; memlint does not follow it']]]);
  });

  it("reads a staged symlink's target from the index as `git add` would make it", async () => {
    const { repo, memdir } = cleanRepo();
    symlinkSync('project_deploys.md', join(memdir, 'alias.md'));
    writeFiles(memdir, { 'MEMORY.md': `${CLEAN_INDEX}- [Alias](alias.md) — the same memory\n`, 'project_deploys.md': BAD_TYPE('Deploys') });
    git(repo, 'add', '-A');
    // Fixed in the working tree, not staged: staging the target settles the link too.
    writeFiles(memdir, { 'project_deploys.md': topic('Deploys') });
    const r = await memlintInProcess(repo, ['--staged']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^\.claude\/memory\/alias\.md:4:\d+ +error .*frontmatter-type$/m);
    expect(r.stdout).toContain('the working tree already fixes .claude/memory/alias.md, .claude/memory/project_deploys.md: stage them with `git add .claude/memory/alias.md .claude/memory/project_deploys.md`');
  });

  it('judges a folder by its staged MEMORY.md: one that links nothing beside it is no memory folder', async () => {
    const repo = initRepo(tempDir('memlint-judged-'));
    writeFiles(repo, { 'README.md': 'app\n', 'notes/MEMORY.md': '# Notes\n', 'notes/x.md': BAD_TYPE('X') });
    git(repo, 'add', '-A');
    expect(await memlintInProcess(repo, ['--staged', '--format', 'json'])).toMatchObject({ code: 0, stdout: '[]\n' });
    // The working tree's index links x.md; the staged one still does not.
    writeFiles(repo, { 'notes/MEMORY.md': '- [X](x.md) — x\n' });
    expect(await memlintInProcess(repo, ['--staged', '--format', 'json'])).toMatchObject({ code: 0, stdout: '[]\n' });
    git(repo, 'add', 'notes/MEMORY.md');
    const r = await memlintInProcess(repo, ['--staged', '--format', 'json']);
    expect(r.code).toBe(1);
    expect(messages(r.stdout)).toEqual([`${join(repo, 'notes', 'x.md')}:4 frontmatter-type`]);
  });

  it('takes no PATH', () => {
    const { repo } = cleanRepo();
    const r = memlint(repo, ['--staged', '.claude/memory']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^memlint: --staged takes no PATH/);
  });

  it('needs a git repository', () => {
    const dir = tempDir('memlint-nogit-');
    writeFiles(dir, { 'mem/MEMORY.md': '' });
    expect(memlint(dir, ['--staged'])).toEqual({ code: 2, stdout: '', stderr: 'memlint: --staged needs a git repository\n' });
  });
});

describe('linked worktree', () => {
  it('lints the worktree’s own files and its own staged blobs', async () => {
    const { repo } = cleanRepo();
    const wt = join(tempDir('memlint-wt-'), 'feature');
    git(repo, 'worktree', 'add', '-q', '-b', 'feature', wt);
    const wtMem = join(wt, '.claude', 'memory');
    expect(await memlintInProcess(wt, [])).toEqual({ code: 0, stdout: '', stderr: '' });
    expect((await memlintInProcess(wt, ['--list-memdirs'])).stdout).toBe('.claude/memory\tclaude-location\n');

    writeFiles(wtMem, { 'project_deploys.md': BAD_TYPE('Deploys') });
    git(wt, 'add', '-A');
    const r = await memlintInProcess(wt, ['--staged', '--format', 'json']);
    expect(r.code).toBe(1);
    expect(messages(r.stdout)).toEqual([`${join(wtMem, 'project_deploys.md')}:4 frontmatter-type`]);
    // The main worktree is untouched by the feature branch's staged change.
    expect(await memlintInProcess(repo, ['--staged'])).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(await memlintInProcess(repo, [])).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('fixes files in the worktree it runs in', async () => {
    const { repo } = cleanRepo();
    const wt = join(tempDir('memlint-wt-'), 'feature');
    git(repo, 'worktree', 'add', '-q', wt);
    writeFiles(join(wt, '.claude', 'memory'), { 'project_freeze.md': topic('Freeze') });
    const r = await memlintInProcess(wt, ['--fix']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Fixed 1 problem in 1 file.\n');
    expect(await memlintInProcess(repo, [])).toEqual({ code: 0, stdout: '', stderr: '' });
  });
});

describe('index version 4', () => {
  it('reads staged blobs and discovers memdirs from a v4 index', async () => {
    const { repo, memdir } = cleanRepo();
    git(repo, 'update-index', '--index-version', '4');
    // The index file header: 'DIRC', then the version.
    expect(readFileSync(join(repo, '.git', 'index')).readUInt32BE(4)).toBe(4);
    expect((await memlintInProcess(repo, ['--list-memdirs'])).stdout).toBe('.claude/memory\tclaude-location\n');
    writeFiles(memdir, { 'project_deploys.md': BAD_TYPE('Deploys') });
    git(repo, 'add', '-A');
    rmSync(join(memdir, 'project_deploys.md'));
    const r = await memlintInProcess(repo, ['--staged', '--format', 'json']);
    expect(r.code).toBe(1);
    expect(messages(r.stdout)).toEqual([`${join(memdir, 'project_deploys.md')}:4 frontmatter-type`]);
    expect(readFileSync(join(repo, '.git', 'index')).readUInt32BE(4)).toBe(4);
  });
});
