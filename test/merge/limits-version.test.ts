// The driver's over-limit warning measures the merged index as the configured Claude Code version
// does (config `claudeCode`, issue 25): from 2.1.211 on the loaded text (frontmatter and HTML
// comments stripped), before it the raw file. Real git, the driver as `memlint install` sets it.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { driverConfig } from '../../src/merge/command.js';
import { configuredClaudeCode } from '../../src/config.js';
import { CLI, git, importCommits, initRepo, writeFiles } from '../helpers/repo.js';

const MEM = '.claude/memory';
const entry = (i: number) => `- [T${i}](t${i}.md) — topic ${i}\n`;
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => entry(from + i)).join('');
const HEAD = `---\nname: index\ndescription: the index\n---\n<!--\n${Array.from({ length: 28 }, (_, i) => `note ${i}`).join('\n')}\n-->\n`;

/** Two branches each add three entries to a 180-entry index; the merge's output (git's and the driver's stderr). */
function mergeIndex(claudeCode: string | null): string {
  const dir = initRepo();
  for (const [key, value] of driverConfig({ memlint: `node ${CLI}` })) git(dir, 'config', key, value);
  importCommits(dir, [
    { branch: 'main', message: 'base', files: { '.gitattributes': `${MEM}/**/*.md merge=memlint\n`, [`${MEM}/MEMORY.md`]: HEAD + range(0, 180), ...(claudeCode ? { '.memlintrc.json': JSON.stringify({ claudeCode }) } : {}) } },
    { branch: 'other', message: 'theirs', from: 0, files: { [`${MEM}/MEMORY.md`]: HEAD + range(0, 180) + range(300, 303) } },
    { branch: 'main', message: 'ours', files: { [`${MEM}/MEMORY.md`]: HEAD + range(0, 180) + range(200, 203) } },
  ]);
  const r = spawnSync('git', ['merge', '--no-edit', 'other'], { cwd: dir, encoding: 'utf8', env: { ...process.env, GIT_EDITOR: 'true' } });
  expect(r.status).toBe(0);
  return `${r.stdout}${r.stderr}`;
}

describe('the over-limit warning: the configured Claude Code version', () => {
  it('the newest (default): 186 loaded lines, no warning', () => {
    expect(mergeIndex(null)).not.toContain('memlint:');
  });

  it('2.1.200: the raw file is 220 lines, so the agent misses entries, and the warning says so with that version', () => {
    const merged = HEAD + range(0, 180) + range(200, 203) + range(300, 303);
    const out = mergeIndex('2.1.200');
    expect(out).toContain(
      `memlint: ${MEM}/MEMORY.md: the merged index is 220 lines and ${merged.trim().length} characters (Claude Code 2.1.200 loads 200 lines, 25000 characters): the agent will not see 20 entries: t166.md, t167.md, t168.md, t169.md, t170.md and 15 more`,
    );
  });
});

describe('the driver reads config claudeCode without the YAML parser', () => {
  it('from .memlintrc.json, .memlintrc.yaml or package.json "memlint", the nearest one; nothing for a bad value', () => {
    const repo = initRepo();
    expect(configuredClaudeCode(repo)).toBeUndefined();
    writeFiles(repo, { 'package.json': JSON.stringify({ name: 'x', memlint: { claudeCode: '2.1.120' } }) });
    expect(configuredClaudeCode(repo)).toBe('2.1.120');
    writeFiles(repo, { '.memlintrc.yaml': 'rules:\n  index-orphan: off\nclaudeCode: "2.1.200" # pinned\n' });
    expect(configuredClaudeCode(repo)).toBe('2.1.200');
    writeFiles(repo, { 'sub/.memlintrc.json': JSON.stringify({ claudeCode: 'latest' }) });
    expect(configuredClaudeCode(`${repo}/sub`)).toBeUndefined();
    expect(configuredClaudeCode(`${repo}/other`)).toBe('2.1.200');
  });
});
