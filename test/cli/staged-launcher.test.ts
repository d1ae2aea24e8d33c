// The launcher (dist/cli.js) answers `--staged` itself when no staged Markdown lies in a memdir,
// and hands what it learned to the program otherwise: both must agree with the program alone.
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
});
