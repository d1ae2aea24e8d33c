// Globs an index names topics by: matched without regular expressions, since the index comes from
// the repository (a glob of many stars must not hang a run).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { globMatch, linkedByName, mentionsOf, topicMentions } from '../../src/content/index-mentions.js';
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

describe('topicMentions: only topics holding a word of the line are tested on it', () => {
  it('finds what testing every topic on every line finds: paths, stems, names, folders, code, wiki links, CJK, globs (property)', () => {
    const topics = ['notes.md', 'a/notes.md', 'ref_api.md', 'p6a-plan.md', 'v1.2-x.md', '笔记.md', '笔记-v2.md', 'deep/er/q.md', 'my notes.md', 'x.md', 'Notes.md', 'corpus/src-1.md'];
    const names: Record<string, string> = { 'notes.md': 'Notes Page', 'x.md': '记录', 'ref_api.md': 'notes' };
    const word = fc.constantFrom(
      'notes.md', 'a/notes.md', './notes.md', '[[notes]]', '[[ notes | n ]]', '[[Notes Page]]', '[[记录]]', '`notes`', '`./p6a-plan`', 'p6a-plan.md', 'x.notes.md', 'my-notes.md', '见笔记.md',
      '笔记-v2.md', 'v1.2-x.md', 'deep/', 'deep/er/', 'corpus/', '[c](corpus/src-1.md)', '.claude/memory/x.md', '/Users/me/p/.claude/memory/ref_api.md', 'memory/q.md', 'my notes.md',
      '`p6a-*`', 'ref_*.md', 'Notes.md', 'notes', 'see', '—', '(', ')', ' ', ' ', ' ', '/', '.', '-', '[[', ']]', '`',
    );
    const line = fc.array(word, { maxLength: 8 }).map((ws) => ws.join(''));
    fc.assert(
      fc.property(fc.array(line, { maxLength: 6 }), fc.subarray(topics), fc.boolean(), fc.constantFrom(undefined, '.claude/memory'), (texts, wanted, broad, fromRoot) => {
        const lines = texts.map((text, i) => ({ line: i + 1, text, kind: 'paragraph' as const, entry: null }));
        const nameOf = (t: string) => names[t];
        expect(topicMentions(lines as never, wanted, fromRoot, broad, nameOf)).toEqual(mentionsOf(lines as never, wanted, fromRoot, broad, nameOf, false));
      }),
      { numRuns: 3000 },
    );
  });
});
