// A subagent's memory scopes end to end in a real repository (issue 25). Claude Code 2.1.332 keeps
// project-scope memory in .claude/agent-memory/<agentType>/ ("shared with your team via version
// control") and local-scope memory in .claude/agent-memory-local/<agentType>/ ("not checked into
// version control"), and writes `**/.claude/agent-memory-local` into .git/info/exclude itself
// (/work/cc/strings-2.1.332.txt: the `memory` scope setting, its two guideline lines, the
// "# claude-code-runtime" exclude block). memlint lints the project scope and never lints the
// local one on its own, nor routes it to the merge driver or asks to commit it, even where git
// does not ignore it (a checkout Claude Code has not run in).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memlintInProcess } from '../helpers/in-process.js';
import { git, memlint, writeFiles } from '../helpers/repo.js';
import { project } from './helpers.js';

const PROJECT = '.claude/agent-memory/reviewer';
const LOCAL = '.claude/agent-memory-local/reviewer';
const topic = (name: string, body: string) => `---\nname: ${name}\ndescription: About ${name}\nmetadata:\n  type: feedback\n---\n${body}\n\n**Why:** it broke once.\n\n**How to apply:** every review.\n`;
const env = { MEMLINT_TODAY: '2026-12-01' };

function repoWithScopes(): string {
  const dir = project();
  writeFiles(dir, { [`${PROJECT}/MEMORY.md`]: '- [Style](style.md) — review style\n', [`${PROJECT}/style.md`]: topic('style', 'Ask for tests first.') });
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'project-scope agent memory');
  // Local scope, untracked and not ignored: an orphan and a file without frontmatter.
  writeFiles(dir, { [`${LOCAL}/MEMORY.md`]: '- [Scratch](scratch.md) — my machine\n', [`${LOCAL}/scratch.md`]: 'no frontmatter here\n', [`${LOCAL}/orphan.md`]: topic('orphan', 'Mine only.') });
  return dir;
}

describe('agent memory scopes in a repository', () => {
  it('lint, --staged, install, doctor, the hook and consolidate take the project scope and leave the local scope alone', async () => {
    const dir = repoWithScopes();
    // Discovery: the project scope is memory; the local scope is not listed.
    const listed = await memlintInProcess(dir, ['--list-memdirs'], { env });
    expect(listed.stdout).toContain(`${PROJECT}\tclaude-location`);
    expect(listed.stdout).not.toContain('agent-memory-local');

    // lint: a problem in the project scope is reported; nothing of the local scope.
    writeFiles(dir, { [`${PROJECT}/extra.md`]: topic('extra', 'Not indexed.') });
    const lint = await memlintInProcess(dir, ['--format', 'json'], { env });
    const files = (JSON.parse(lint.stdout) as Array<{ filePath: string; messages: unknown[] }>).filter((f) => f.messages.length > 0).map((f) => f.filePath.slice(dir.length + 1));
    expect(files).toEqual([`${PROJECT}/extra.md`]);
    // Named on the command line, the local scope is linted: the person asked for it.
    const named = await memlintInProcess(dir, [LOCAL, '--format', 'json'], { env });
    expect(named.code).toBe(1);

    // install routes the project scope to the merge driver, never the local scope.
    const install = await memlintInProcess(dir, ['install', '--quiet'], { env });
    expect(install.code).toBe(0);
    const attributes = readFileSync(join(dir, '.gitattributes'), 'utf8');
    expect(attributes).toContain(`${PROJECT}/`);
    expect(attributes).not.toContain('agent-memory-local');
    const doctor = await memlintInProcess(dir, ['doctor', '--json'], { env });
    expect(doctor.stdout).not.toContain('agent-memory-local');
    expect((JSON.parse(doctor.stdout) as { checks: Array<{ part: string; ok: boolean }> }).checks.find((c) => c.part === 'attributes')?.ok).toBe(true);

    // --staged: a local-scope file forced into the index is not linted (Claude Code never commits
    // it); the project scope staged is.
    git(dir, 'add', '-f', `${LOCAL}/scratch.md`, `${LOCAL}/MEMORY.md`);
    const stagedLocal = await memlintInProcess(dir, ['--staged', '--format', 'json'], { env });
    expect(stagedLocal.stderr).toBe('');
    expect(JSON.parse(stagedLocal.stdout)).toEqual([]);
    git(dir, 'add', `${PROJECT}/extra.md`);
    const stagedProject = await memlintInProcess(dir, ['--staged', '--format', 'json'], { env });
    expect((JSON.parse(stagedProject.stdout) as Array<{ filePath: string; messages: unknown[] }>).filter((f) => f.messages.length > 0).map((f) => f.filePath.slice(dir.length + 1))).toEqual([`${PROJECT}/extra.md`]);
    git(dir, 'reset', '-q');

    // The PostToolUse hook: a write into the local scope gets no lint; one into the project scope does.
    const payload = (file: string) => JSON.stringify({ session_id: 's', cwd: dir, hook_event_name: 'PostToolUse', tool_name: 'Write', tool_input: { file_path: join(dir, file), content: '' }, tool_response: { filePath: join(dir, file), success: true } });
    const hookEnv = { ...process.env, CLAUDE_PROJECT_DIR: dir, MEMLINT_TODAY: '2026-12-01' };
    expect(memlint(dir, ['hook'], { env: hookEnv, input: payload(`${LOCAL}/scratch.md`) }).stdout).toBe('');
    writeFiles(dir, { [`${PROJECT}/broken.md`]: 'no frontmatter\n' });
    expect(memlint(dir, ['hook'], { env: hookEnv, input: payload(`${PROJECT}/broken.md`) }).stdout).toContain('frontmatter-yaml');

    // consolidate plans for the project scope only.
    const plan = await memlintInProcess(dir, ['consolidate', '--check', '--json'], { env });
    const memdirs = (JSON.parse(plan.stdout) as { memdirs: Array<{ memdir: string }> }).memdirs.map((m) => m.memdir);
    expect(memdirs.some((m) => m.includes('agent-memory-local'))).toBe(false);
    expect(memdirs.some((m) => m.includes(PROJECT))).toBe(true);
  });
});
