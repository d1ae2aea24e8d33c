// The launcher (dist/cli.js) answers `--staged` itself when no staged Markdown lies in a memdir,
// and hands what it learned to the program otherwise: both must agree with the program alone (its
// JSON report, which the launcher never answers, made by main() in this process: in-process.ts).
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memlintInProcess } from '../helpers/in-process.js';
import { commitFiles, git, initRepo, memlint, tempDir, writeFiles } from '../helpers/repo.js';
import { cleanRepo, topic } from './setup.js';

const BAD_TYPE = `---\nname: Deploys\ndescription: Deploys in one line\ntype: preference\n---\nBody.\n`;

describe('--staged through the launcher', () => {
  it('a staged README.md beside a broken (unstaged) memory is not memory', async () => {
    const { repo, memdir } = cleanRepo();
    writeFiles(memdir, { 'project_deploys.md': BAD_TYPE });
    writeFiles(repo, { 'README.md': '# App\n' });
    git(repo, 'add', 'README.md');
    expect(memlint(repo, ['--staged'])).toEqual({ code: 0, stdout: '', stderr: '' });
    // json still prints an empty report (the program answers it)
    expect((await memlintInProcess(repo, ['--staged', '--format', 'json'])).stdout.trim()).toBe('[]');
  });

  it('a staged topic file is linted, from the top or from a subfolder', () => {
    const { repo, memdir } = cleanRepo();
    writeFiles(memdir, { 'project_deploys.md': BAD_TYPE });
    writeFiles(repo, { 'README.md': '# App\n' });
    git(repo, 'add', 'README.md', '.claude/memory/project_deploys.md');
    const top = memlint(repo, ['--staged']);
    expect(top.code).toBe(1);
    expect(top.stdout).toContain('frontmatter-type');
    const sub = memlint(join(repo, '.claude'), ['--staged']);
    expect(sub.code).toBe(1);
    expect(sub.stdout).toContain('frontmatter-type');
  });

  // The launcher guesses the memdirs from MEMORY.md files on disk to start work early; git decides.
  // Each case is checked against the program alone (json output is not answered by the launcher).
  const ruleIds = (stdout: string) => [...stdout.matchAll(/:\d+:\d+ +(?:error|warn) .* (\S+)$/gm)].map((m) => m[1]).sort();
  const jsonRuleIds = (stdout: string) =>
    (JSON.parse(stdout) as Array<{ messages: Array<{ ruleId: string | null }> }>).flatMap((r) => r.messages.map((m) => m.ruleId ?? 'fatal')).sort();

  it('a MEMORY.md on disk that is not in the index is not a memdir (the guess is wrong one way)', () => {
    const { repo } = cleanRepo();
    writeFiles(join(repo, 'notes'), { 'MEMORY.md': '- [X](x.md) — x\n', 'x.md': BAD_TYPE });
    git(repo, 'add', 'notes/x.md');
    expect(memlint(repo, ['--staged'])).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('a MEMORY.md in the index but deleted from disk still makes a memdir (the guess is wrong the other way)', async () => {
    const { repo, memdir } = cleanRepo();
    writeFiles(memdir, { 'project_deploys.md': BAD_TYPE });
    git(repo, 'add', '.claude/memory/project_deploys.md');
    rmSync(join(memdir, 'MEMORY.md'));
    const r = memlint(repo, ['--staged']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('frontmatter-type');
    expect(ruleIds(r.stdout)).toEqual(jsonRuleIds((await memlintInProcess(repo, ['--staged', '--format', 'json'])).stdout));
  });

  it('a staged daily log and a topic in a subfolder are linted with their memdir, as the program alone does', async () => {
    const { repo, memdir } = cleanRepo();
    writeFiles(memdir, {
      'logs/2026/11/2026-11-28.md': 'Deployed yesterday.\n',
      'feedback/style.md': `---\nname: Style\ndescription: Style in one line\ntype: feedback\n---\nNo semicolons.\n`,
    });
    git(repo, 'add', '.claude/memory/logs', '.claude/memory/feedback');
    const r = memlint(repo, ['--staged']);
    const ids = ruleIds(r.stdout);
    expect(ids).toContain('index-orphan');
    expect(ids).toEqual(jsonRuleIds((await memlintInProcess(repo, ['--staged', '--format', 'json'])).stdout));
  });

  it('a memdir at the top of the repository', async () => {
    const repo = cleanRepo().repo;
    writeFiles(repo, { 'MEMORY.md': '- [Deploys](project_deploys.md) — when deploys go out\n', 'project_deploys.md': BAD_TYPE });
    git(repo, 'add', 'MEMORY.md', 'project_deploys.md');
    const r = memlint(repo, ['--staged']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('frontmatter-type');
    expect(ruleIds(r.stdout)).toEqual(jsonRuleIds((await memlintInProcess(repo, ['--staged', '--format', 'json'])).stdout));
  });

  it('two memdirs staged at once, from a subfolder (where the guess looks in the wrong place)', async () => {
    const { repo, memdir } = cleanRepo();
    writeFiles(join(repo, 'app', 'memory'), { 'MEMORY.md': '- [Deploys](project_deploys.md) — deploys\n', 'project_deploys.md': BAD_TYPE });
    writeFiles(memdir, { 'project_deploys.md': BAD_TYPE });
    git(repo, 'add', '-A');
    for (const cwd of [repo, join(repo, 'app')]) {
      const r = memlint(cwd, ['--staged']);
      expect(r.code).toBe(1);
      expect(r.stdout.match(/frontmatter-type/g)).toHaveLength(2);
      expect(ruleIds(r.stdout)).toEqual(jsonRuleIds((await memlintInProcess(cwd, ['--staged', '--format', 'json'])).stdout));
    }
  });

  // Without a MEMORY.md on disk the launcher answers from HEAD's tree and the staged change.
  describe('when no MEMORY.md is on disk, the index still decides', () => {
    const README = { 'README.md': '# App\n\nSee the wiki.\n' };
    const rootMemory = () => {
      const repo = cleanRepo().repo;
      commitFiles(repo, { 'MEMORY.md': '- [Deploys](project_deploys.md) — when deploys go out\n', 'project_deploys.md': BAD_TYPE }, 'a memdir at the top');
      return repo;
    };

    it('a MEMORY.md committed but deleted from disk (not staged) still owns a staged README.md', async () => {
      const repo = rootMemory();
      rmSync(join(repo, 'MEMORY.md'));
      writeFiles(repo, README);
      git(repo, 'add', 'README.md');
      const r = memlint(repo, ['--staged']);
      expect(ruleIds(r.stdout)).toEqual(jsonRuleIds((await memlintInProcess(repo, ['--staged', '--format', 'json'])).stdout));
      expect(r.stdout).toContain('README.md');
    });

    it('a MEMORY.md whose deletion is staged owns nothing', async () => {
      const repo = rootMemory();
      git(repo, 'rm', '-q', 'MEMORY.md');
      writeFiles(repo, README);
      git(repo, 'add', 'README.md');
      expect(memlint(repo, ['--staged'])).toEqual({ code: 0, stdout: '', stderr: '' });
      expect((await memlintInProcess(repo, ['--staged', '--format', 'json'])).stdout.trim()).toBe('[]');
    });

    it('a MEMORY.md staged as new, then deleted from disk, owns the staged files beside it', async () => {
      const { repo } = cleanRepo();
      writeFiles(repo, { 'notes/MEMORY.md': '- [Deploys](project_deploys.md) — deploys\n', 'notes/project_deploys.md': BAD_TYPE });
      git(repo, 'add', 'notes');
      rmSync(join(repo, 'notes', 'MEMORY.md'));
      const r = memlint(repo, ['--staged']);
      expect(r.code).toBe(1);
      expect(ruleIds(r.stdout)).toEqual(jsonRuleIds((await memlintInProcess(repo, ['--staged', '--format', 'json'])).stdout));
    });

    it('a folder whose name looks like a pattern ("a[1]") is that folder', async () => {
      const { repo } = cleanRepo();
      commitFiles(repo, { 'a[1]/MEMORY.md': '- [Deploys](project_deploys.md) — deploys\n', 'a[1]/project_deploys.md': topic('Deploys'), 'a1/MEMORY.md': '# other\n' }, 'two folders');
      rmSync(join(repo, 'a[1]', 'MEMORY.md'));
      writeFiles(repo, { 'a[1]/project_deploys.md': BAD_TYPE });
      git(repo, 'add', 'a[1]/project_deploys.md');
      const r = memlint(repo, ['--staged']);
      expect(r.stdout).toContain('frontmatter-type');
      expect(ruleIds(r.stdout)).toEqual(jsonRuleIds((await memlintInProcess(repo, ['--staged', '--format', 'json'])).stdout));
    });

    it('before the first commit', () => {
      const repo = initRepo(tempDir('memlint-unborn-'));
      writeFiles(repo, README);
      git(repo, 'add', 'README.md');
      expect(memlint(repo, ['--staged'])).toEqual({ code: 0, stdout: '', stderr: '' });
      writeFiles(repo, { 'm/MEMORY.md': '- [Deploys](project_deploys.md) — deploys\n', 'm/project_deploys.md': BAD_TYPE });
      git(repo, 'add', 'm');
      rmSync(join(repo, 'm', 'MEMORY.md'));
      expect(memlint(repo, ['--staged']).stdout).toContain('frontmatter-type');
    });
  });
});

