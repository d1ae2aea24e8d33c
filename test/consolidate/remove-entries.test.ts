// Entries leaving the index one after another (consolidation's merges and --prune): the index is
// kept parsed and a line dropped where no other line can read differently (src/consolidate/draft.ts).
// Held to the removal it replaced, which parsed the whole index again for each entry, on generated
// indexes of every shape the block model reads (nested and indented items, lazy lines, quotes,
// fences, comments, setext underlines, references, line endings), each step compared.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addArchiveLine, archiveEntryLine } from '../../src/consolidate/archive.js';
import { removeEntry } from '../../src/consolidate/dedupe.js';
import { draftOf, finish, type Draft } from '../../src/consolidate/draft.js';
import { linkDestination, parseIndex, pathKey } from '../../src/memdir/memory-index.js';
import { dominantEol } from '../../src/memdir/lines.js';
import { ctx, state } from './helpers.js';

const undated = (l: string) => l.replace(/\b(on) \d{4}-\d{2}-\d{2}\b/g, '$1 …');

/** The removal as it was: the index parsed again, its entries for the file dropped, the archive scanned line by line. */
function removedBefore(index: string, archive: Draft, rel: string, archivedAs: string, note: string): string {
  const c = ctx();
  const stamp = `archived on ${c.facts.today}: ${note}`;
  const parsed = parseIndex(index);
  const hits = parsed.lines.filter((l) => l.entry && l.entry.key === pathKey(rel));
  let text = index;
  if (hits.length > 0) {
    const drop = new Set(hits.map((h) => h.line));
    const eol = dominantEol(index);
    const kept = parsed.lines.filter((l) => !drop.has(l.line));
    text = parsed.bom + kept.map((l, i) => l.text + (l.eol || (i < kept.length - 1 ? eol : ''))).join('');
  }
  const recorded = (archive.archive.get('ARCHIVE.md') ?? '').split(/\r?\n|\r/).some((l) => l.includes(`](${linkDestination(archivedAs)})`) && undated(l).endsWith(`(${undated(stamp)})`));
  if (recorded) return text;
  if (hits.length === 0) addArchiveLine(archive, c, archiveEntryLine(rel.replace(/\.md$/, ''), archivedAs, '', stamp));
  for (const h of hits) addArchiveLine(archive, c, archiveEntryLine(h.entry!.title, archivedAs, h.entry!.hook, stamp));
  return text;
}

const FILES = ['a.md', 'b.md', 'c d.md', 'e(1).md', 'f.md'];
const target = fc.constantFrom(...FILES).map((f) => linkDestination(f));
const line = fc.oneof(
  fc.tuple(fc.constantFrom('-', '*', '+', '  -', '    -', '   *', '\t-', '1.', '> -', '-\t'), fc.constantFrom('A', 'B [x]', 'T'), target, fc.constantFrom(' — hook', ' - hook', '', ': h', ' — see [[a]]')).map(([b, t, d, h]) => `${b} [${t}](${d})${h}`),
  fc.constantFrom('', '  ', '# Memory', '## Project', 'prose line', '  lazy continued', '---', '===', '- - -', '***', '> quote', '```', '~~~', '    code', '<!-- c', '-->', '<div>', '</div>', '- [ref]', '[ref]: a.md', '- [T][ref] — h', '- plain item', '#tag', '- ', '| a | b |', '|---|---|'),
);
const eol = fc.constantFrom('\n', '\n', '\n', '\r\n', '\r');
const index = fc.tuple(fc.array(fc.tuple(line, eol), { maxLength: 24 }), fc.boolean(), fc.boolean()).map(([lines, final, bom]) => {
  const text = lines.map(([l, e]) => l + e).join('');
  return (bom ? '\uFEFF' : '') + (final || text === '' ? text : text.replace(/(\r\n|\r|\n)$/, ''));
});

describe('entries removed from an index kept parsed', () => {
  it('leave the index and ARCHIVE.md as parsing the index again for each removal does', () => {
    let dropped = 0;
    let kept = 0; // removals made without parsing again
    fc.assert(
      fc.property(index, fc.array(fc.constantFrom(...FILES), { minLength: 1, maxLength: 8 }), fc.constantFrom(undefined, '# Memory archive\n\n- [A](a.md) (archived on 2026-01-01: merged into b.md)\n'), (text, removals, archived) => {
        const c = ctx();
        const files = { 'MEMORY.md': text };
        const before = draftOf(state(files, archived ? { 'ARCHIVE.md': archived } : {}));
        const draft = draftOf(state(files, archived ? { 'ARCHIVE.md': archived } : {}));
        let expected = text;
        removals.forEach((rel, k) => {
          const archivedAs = k % 2 === 0 ? rel : `${rel.replace(/\.md$/, '')}-${k}.md`;
          const note = k % 3 === 0 ? 'merged into b.md' : 'stale: latest date 2025-01-01';
          const prior = expected;
          expected = removedBefore(expected, before, rel, archivedAs, note);
          removeEntry(draft, c, rel, archivedAs, note);
          if (draft.index && expected !== prior) kept++;
          const now = draft.index ? draft.index.text() : draft.files.get('MEMORY.md');
          expect(now).toBe(expected);
          expect(draft.archive.get('ARCHIVE.md')).toBe(before.archive.get('ARCHIVE.md'));
        });
        if (expected !== text) dropped++;
        expect(finish(draft).files.get('MEMORY.md')).toBe(expected);
      }),
      { numRuns: 4000 },
    );
    expect(dropped).toBeGreaterThan(1000);
    expect(kept).toBeGreaterThan(150);
  });
});
