// Config `ignore` globs: gitignore-like matching on paths relative to the config's folder.
import { describe, expect, it } from 'vitest';
import { matcher } from '../../src/glob.js';

describe('ignore globs', () => {
  const cases: Array<[string, string[], string[]]> = [
    ['README.md', ['README.md', '.claude/memory/README.md'], ['README.md.bak', 'XREADME.md']],
    ['*.md', ['a.md', 'x/y/b.md'], ['a.mdx', 'a.txt']],
    ['**/README.md', ['README.md', 'a/b/README.md'], ['a/README.mdx']],
    ['.claude/memory/handoff/**', ['.claude/memory/handoff/x.md', '.claude/memory/handoff/a/b.md'], ['.claude/memory/handoffs/x.md', 'x/.claude/memory/handoff/y.md']],
    ['.claude/memory/handoff/', ['.claude/memory/handoff/x.md'], ['.claude/memory/handoffx.md']],
    ['handoff', ['handoff', 'a/handoff/x.md'], ['handoffs/x.md']],
    ['/notes.md', ['notes.md'], ['a/notes.md']],
    ['./mem/*.md', ['mem/a.md'], ['x/mem/a.md', 'mem/a.txt', 'mem/sub/b.md']],
    ['{README,RUNBOOK}.md', ['README.md', 'd/RUNBOOK.md'], ['CHANGELOG.md']],
    ['session-?.md', ['session-1.md'], ['session-12.md']],
  ];
  for (const [glob, yes, no] of cases) {
    it(glob, () => {
      const m = matcher([glob]);
      for (const p of yes) expect(m(p), `${glob} matches ${p}`).toBe(true);
      for (const p of no) expect(m(p), `${glob} does not match ${p}`).toBe(false);
    });
  }
  it('matches nothing without globs', () => {
    expect(matcher(undefined)('a.md')).toBe(false);
    expect(matcher([])('a.md')).toBe(false);
  });
});
