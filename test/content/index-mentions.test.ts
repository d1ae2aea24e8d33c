// Globs an index names topics by: matched without regular expressions, since the index comes from
// the repository (a glob of many stars must not hang a run).
import { describe, expect, it } from 'vitest';
import { globMatch, linkedByName, topicMentions } from '../../src/content/index-mentions.js';
import { parseIndex } from '../../src/memdir/memory-index.js';

describe('globMatch', () => {
  it('matches * within one path segment and ? as one character', () => {
    expect(globMatch('p6a-*', 'p6a-meeting.md')).toBe(true);
    expect(globMatch('ref_*.md', 'ref_api.md')).toBe(true);
    expect(globMatch('ref_*.md', 'sub/ref_api.md')).toBe(false);
    expect(globMatch('sub/*.md', 'sub/a.md')).toBe(true);
    expect(globMatch('a?c.md', 'abc.md')).toBe(true);
    expect(globMatch('a?c.md', 'a/c.md')).toBe(false);
    expect(globMatch('a*b', 'axxb')).toBe(true);
    expect(globMatch('a*b', 'axxc')).toBe(false);
    expect(globMatch('*x*', 'abc')).toBe(false);
  });

  it('takes time linear in the name for a glob of many stars', () => {
    // A guard, not a timing: a regular expression built from this glob backtracks for hours on this
    // name (the run hangs until the suite's timeout); the matcher answers at once.
    const glob = `${'a*'.repeat(60)}b.md`;
    const name = `${'a'.repeat(200)}.md`;
    expect(globMatch(glob, name)).toBe(false);
    const index = [{ line: 1, text: `Old plans: \`${glob}\`, ${'a'.repeat(100000)}*`, kind: 'paragraph' as const, entry: null }];
    expect(topicMentions(index as never, [name], undefined, true).size).toBe(0);
  });
});

describe('linkedByName', () => {
  it('reads a [[name]] link as Claude Code does, not one shown in code', () => {
    const lines = (text: string) => parseIndex(text).lines;
    expect(linkedByName(lines('- [[ledger-rounding]] — the rule\n'), 'ledger-rounding')).toBe(true);
    expect(linkedByName(lines('- [[ ledger-rounding | the rule ]]\n'), 'ledger-rounding')).toBe(true);
    expect(linkedByName(lines('Link memories as `[[ledger-rounding]]`.\n'), 'ledger-rounding')).toBe(false);
    expect(linkedByName(lines('```\n[[ledger-rounding]]\n```\n'), 'ledger-rounding')).toBe(false);
    expect(linkedByName(lines('- [[ledger-rounding-v2]]\n'), 'ledger-rounding')).toBe(false);
    expect(linkedByName(lines('- [[x]]\n'), undefined)).toBe(false);
  });
});
