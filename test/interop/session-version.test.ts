// SessionStart's advice measures and words the index as the configured Claude Code version does
// (config `claudeCode`, issue 25), not always as the newest: before 2.1.211 Claude Code measured
// the raw file (frontmatter and HTML comments counted), and before 2.1.210 it named no compaction
// target (only its limits).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { answer } from '../../src/commands/hook.js';
import { inProcess } from '../helpers/in-process.js';
import { commitFiles, initRepo, writeFiles } from '../helpers/repo.js';
import { hermetic } from './helpers.js';

const FRONTMATTER = '---\nname: index\ndescription: the index\n---\n';
const COMMENT = `<!--\n${Array.from({ length: 28 }, (_, i) => `note ${i}`).join('\n')}\n-->\n`;
const ENTRIES = Array.from({ length: 185 }, (_, i) => `- [T${i}](t${i}.md) — topic ${i}`).join('\n');
const INDEX = `${FRONTMATTER}${COMMENT}${ENTRIES}\n`;

async function sessionStart(claudeCode: string | null): Promise<string> {
  const h = hermetic();
  const repo = initRepo();
  const files: Record<string, string> = { '.claude/memory/MEMORY.md': INDEX };
  for (let i = 0; i < 185; i++) files[`.claude/memory/t${i}.md`] = `---\nname: t${i}\ndescription: topic ${i}\ntype: reference\n---\nx\n`;
  if (claudeCode) files['.memlintrc.json'] = JSON.stringify({ claudeCode });
  commitFiles(repo, files);
  writeFiles(repo, { '.claude/settings.local.json': JSON.stringify({ autoMemoryDirectory: path.join(repo, '.claude/memory') }) });
  const payload = JSON.stringify({ session_id: 's1', cwd: repo, hook_event_name: 'SessionStart', source: 'startup' });
  const r = await inProcess(repo, { exactEnv: { ...h.env, CLAUDE_PROJECT_DIR: repo, MEMLINT_TODAY: '2026-11-30' } }, async (io) => {
    io.stdout.write(await answer(payload, io.env, io.cwd));
    return 0;
  });
  expect(r.stderr).toBe('');
  return (JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
}

describe('SessionStart: the configured Claude Code version', () => {
  it('the newest (default): the loaded lines, and its compaction target', async () => {
    expect(await sessionStart(null)).toContain(
      `.claude/memory/MEMORY.md is 185/200 lines and ${ENTRIES.length}/25000 units, close to what Claude Code loads: compact it to under 140 lines (Claude Code's own target)`,
    );
  });

  it('2.1.200: the raw file counted (frontmatter and comment too), its limits and no target of its own', async () => {
    const context = await sessionStart('2.1.200');
    expect(context).toContain(`.claude/memory/MEMORY.md is 219/200 lines and ${INDEX.trim().length}/25000 units, over what Claude Code loads: compact it to under 200 lines and 24.4KB (what Claude Code loads)`);
    expect(context).toContain('You cannot see these entries (past the cut): t166.md, t167.md');
  });
});
