// index-duplicate's quick fixes: a second entry with words of its own is never merged by --fix or
// consolidate (a correction written after the first is as common as a repeat: fifteenth held-out
// set); the person is offered both merges, each keeping every word.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyEdits, lintMemdirs, resolveRules } from '../../src/lint/engine.js';
import { memlintInProcess } from '../helpers/in-process.js';
import { git, initRepo, tempDir, writeFiles } from '../helpers/repo.js';

const MEM = '.claude/memory';
const TOPIC = '---\nname: Banner landmark\ndescription: Whether page headers create a second banner landmark\ntype: project\n---\nAll content sits inside the main region.\n';
const INDEX = [
  '- [Second banner landmark](project_banner.md) — a header below the page root adds a second banner; use a div',
  '- [Second banner landmark — CORRECTED](project_banner.md) — every page renders inside main, where a header is no banner; no risk',
  '',
].join('\n');

function memory(topic = TOPIC): string {
  const repo = initRepo(tempDir('memlint-dup-'));
  writeFiles(join(repo, MEM), { 'MEMORY.md': INDEX, 'project_banner.md': topic });
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', 'memory');
  return repo;
}

async function duplicateFindings(repo: string) {
  const run = await lintMemdirs({ memdirs: [{ dir: join(repo, MEM), repoRoot: repo, reason: 'path' }], rules: resolveRules(undefined).filter((r) => r.rule.id === 'index-duplicate'), env: process.env });
  return run.results.flatMap((r) => r.messages);
}

/** The files a suggestion's edits leave (the index and the topic). */
function applied(repo: string, edits: Array<{ path?: string; start: number; end: number; text: string }>): Record<string, string> {
  const index = join(repo, MEM, 'MEMORY.md');
  const byFile = new Map<string, typeof edits>();
  for (const e of edits) byFile.set(e.path ?? index, [...(byFile.get(e.path ?? index) ?? []), e]);
  return Object.fromEntries([...byFile].map(([path, es]) => [path.slice(join(repo, MEM).length + 1), applyEdits(readFileSync(path, 'utf8'), es)]));
}

describe('index-duplicate: a second entry with words of its own', () => {
  it('is reported, never merged by --fix or consolidate; both merges are offered, each keeping every word', async () => {
    const repo = memory();
    const [found, ...rest] = await duplicateFindings(repo);
    expect(rest).toEqual([]);
    expect(found).toMatchObject({ line: 2, message: 'project_banner.md is listed twice (first on line 1) with a title and hook of its own: merge the two into one entry (not fixed: the two say different things, and which is current is for a person to choose)' });
    expect(found!.fix).toBeUndefined();
    expect(found!.suggestions!.map((s) => s.desc)).toEqual(["Keep line 1's entry; move this one's words into project_banner.md", "Keep this entry; move line 1's words into project_banner.md"]);

    const keepCorrection = applied(repo, found!.suggestions![1]!.fix.edits);
    expect(keepCorrection['MEMORY.md']).toBe(`${INDEX.split('\n')[1]}\n`);
    expect(keepCorrection['project_banner.md']).toBe(`${TOPIC}\n## From the index\n\na header below the page root adds a second banner; use a div\n`);
    const keepFirst = applied(repo, found!.suggestions![0]!.fix.edits);
    expect(keepFirst['MEMORY.md']).toBe(`${INDEX.split('\n')[0]}\n`);
    expect(keepFirst['project_banner.md']).toContain('Second banner landmark — CORRECTED — every page renders inside main');

    for (const args of [['--fix'], ['consolidate', '--force']]) {
      const r = await memlintInProcess(repo, args, { env: { MEMLINT_TODAY: '2026-12-04' } });
      expect(r.code, r.stderr).toBeLessThan(2);
      expect(readFileSync(join(repo, MEM, 'MEMORY.md'), 'utf8')).toBe(INDEX);
      expect(readFileSync(join(repo, MEM, 'project_banner.md'), 'utf8')).toBe(TOPIC);
      if (args[0] === 'consolidate') expect(r.stdout).toContain('1 second entry for a topic left as written (MEMORY.md:2, project_banner.md: it says what line 1 does not');
    }
  });

  it('offers no merge that would take the topic past what recall shows another session', async () => {
    // A topic a few bytes short of the 4,096 recall shows: neither entry's words fit in it.
    let full = TOPIC;
    for (let i = 1; Buffer.byteLength(full) < 4_000; i++) full += `Audit note ${i}: each page was checked with a screen reader and the landmark list.\n`;
    const repo = memory(full);
    const [found] = await duplicateFindings(repo);
    // Keeping the first would move the correction's words into a full topic: not offered.
    expect(found!.suggestions ?? []).toEqual([]);
    expect(found!.message).toContain('(not fixed: what either says would take project_banner.md past what recall shows another session)');
  });
});
