// The launcher (dist/cli.js) answers `--staged` itself when no staged Markdown lies in a memdir,
// and hands what it learned to the program otherwise: both must agree with the program alone.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, memlint, writeFiles } from '../helpers/repo.js';
import { cleanRepo } from './setup.js';

const BAD_TYPE = `---\nname: Deploys\ndescription: Deploys in one line\ntype: preference\n---\nBody.\n`;

describe('--staged through the launcher', () => {
  it('a staged README.md beside a broken (unstaged) memory is not memory', () => {
    const { repo, memdir } = cleanRepo();
    writeFiles(memdir, { 'project_deploys.md': BAD_TYPE });
    writeFiles(repo, { 'README.md': '# App\n' });
    git(repo, 'add', 'README.md');
    expect(memlint(repo, ['--staged'])).toEqual({ code: 0, stdout: '', stderr: '' });
    // json still prints an empty report (the program answers it)
    expect(memlint(repo, ['--staged', '--format', 'json']).stdout.trim()).toBe('[]');
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

  it('a MEMORY.md in the index but deleted from disk still makes a memdir (the guess is wrong the other way)', () => {
    const { repo, memdir } = cleanRepo();
    writeFiles(memdir, { 'project_deploys.md': BAD_TYPE });
    git(repo, 'add', '.claude/memory/project_deploys.md');
    rmSync(join(memdir, 'MEMORY.md'));
    const r = memlint(repo, ['--staged']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('frontmatter-type');
    expect(ruleIds(r.stdout)).toEqual(jsonRuleIds(memlint(repo, ['--staged', '--format', 'json']).stdout));
  });

  it('a staged daily log and a topic in a subfolder are linted with their memdir, as the program alone does', () => {
    const { repo, memdir } = cleanRepo();
    writeFiles(memdir, {
      'logs/2026/11/2026-11-28.md': 'Deployed yesterday.\n',
      'feedback/style.md': `---\nname: Style\ndescription: Style in one line\ntype: feedback\n---\nNo semicolons.\n`,
    });
    git(repo, 'add', '.claude/memory/logs', '.claude/memory/feedback');
    const r = memlint(repo, ['--staged']);
    const ids = ruleIds(r.stdout);
    expect(ids).toContain('index-orphan');
    expect(ids).toEqual(jsonRuleIds(memlint(repo, ['--staged', '--format', 'json']).stdout));
  });

  it('a memdir at the top of the repository', () => {
    const repo = cleanRepo().repo;
    writeFiles(repo, { 'MEMORY.md': '- [Deploys](project_deploys.md) — when deploys go out\n', 'project_deploys.md': BAD_TYPE });
    git(repo, 'add', 'MEMORY.md', 'project_deploys.md');
    const r = memlint(repo, ['--staged']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('frontmatter-type');
    expect(ruleIds(r.stdout)).toEqual(jsonRuleIds(memlint(repo, ['--staged', '--format', 'json']).stdout));
  });

  it('two memdirs staged at once, from a subfolder (where the guess looks in the wrong place)', () => {
    const { repo, memdir } = cleanRepo();
    writeFiles(join(repo, 'app', 'memory'), { 'MEMORY.md': '- [Deploys](project_deploys.md) — deploys\n', 'project_deploys.md': BAD_TYPE });
    writeFiles(memdir, { 'project_deploys.md': BAD_TYPE });
    git(repo, 'add', '-A');
    for (const cwd of [repo, join(repo, 'app')]) {
      const r = memlint(cwd, ['--staged']);
      expect(r.code).toBe(1);
      expect(r.stdout.match(/frontmatter-type/g)).toHaveLength(2);
      expect(ruleIds(r.stdout)).toEqual(jsonRuleIds(memlint(cwd, ['--staged', '--format', 'json']).stdout));
    }
  });
});

