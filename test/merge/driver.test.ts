// The fallback ladder of the pure driver core: which inputs it merges and which it hands to git.
import { describe, expect, it } from 'vitest';
import { mergeMemoryFile, MAX_SEMANTIC_BYTES, type MergeInput } from '../../src/merge/driver.js';

const e = (k: string, hook = `about ${k}`) => `- [${k}](${k}.md) — ${hook}\n`;
const input = (base: string | Buffer, ours: string | Buffer, theirs: string | Buffer, path = '.claude/memory/MEMORY.md'): MergeInput => ({
  base: Buffer.from(base),
  ours: Buffer.from(ours),
  theirs: Buffer.from(theirs),
  path,
  markerSize: 7,
});

describe('the fallback ladder', () => {
  it('hands git what it cannot trust', () => {
    const big = 'x'.repeat(MAX_SEMANTIC_BYTES + 1);
    expect(mergeMemoryFile(input(big, big + 'a', big + 'b'))).toEqual({ lineMerge: true, reason: 'larger than 1 MiB' });
    expect(mergeMemoryFile(input('a\0', 'b\0', 'c\0'))).toEqual({ lineMerge: true, reason: 'binary content' });
    const utf16 = (t: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(t, 'utf16le')]);
    expect(mergeMemoryFile(input(utf16('- [A](a.md) — a\n'), utf16('- [B](b.md) — b\n'), 'x\n'))).toEqual({ lineMerge: true, reason: 'UTF-16 content, not UTF-8' });
    expect(mergeMemoryFile(input(Buffer.from([0xc3, 0x28]), 'a', 'b'))).toEqual({ lineMerge: true, reason: 'not valid UTF-8' });
    expect(mergeMemoryFile(input('a\n', '<<<<<<< x\na\n=======\nb\n>>>>>>> y\n', 'c\n'))).toEqual({ lineMerge: true, reason: 'conflict markers already inside an input' });
    expect(mergeMemoryFile(input('<<<<<<< x\na\n>>>>>>> y\n', 'a\n', 'b\n'))).toEqual({ lineMerge: true, reason: 'conflict markers in the merge base' });
    expect(mergeMemoryFile(input('a', 'b', 'c', 'package.json'))).toEqual({ lineMerge: true, reason: 'not a memory file' });
    const repetitive = Array.from({ length: 2000 }, (_, i) => (i % 2 ? '' : '- x')).join('\n') + '\n';
    expect(mergeMemoryFile(input(repetitive, repetitive + '- a\n', '- b\n' + repetitive, 'notes.md'))).toEqual({ lineMerge: true, reason: 'too many repeated lines for the structured merge' });
  });

  it('merges an add/add (empty base) as sets, and an edge-case empty side', () => {
    const r = mergeMemoryFile(input('', e('a') + e('b'), e('a') + e('c')));
    expect(r).toMatchObject({ method: 'semantic', conflicts: [] });
    expect('output' in r && r.output!.toString()).toBe(e('a') + e('b') + e('c'));
    const emptied = mergeMemoryFile(input(e('a'), '', e('a') + e('b')));
    expect('output' in emptied && emptied.output!.toString()).toBe(e('b'));
  });

  it('reports delete-vs-edit as a warning, not a conflict, while the topic file stays (or nothing says it does not)', () => {
    const r = mergeMemoryFile(input(e('a') + e('b'), e('a'), e('a') + e('b', 'edited')));
    expect(r).toMatchObject({
      conflicts: [],
      warnings: ['memlint: .claude/memory/MEMORY.md: b.md: deleted in ours but edited in theirs; the edited entry is kept (if b.md itself is gone after the merge, restore it or delete the entry)'],
      deletedEdited: [{ key: 'b.md', target: 'b.md', deletedIn: 'ours' }],
    });
    const kept = mergeMemoryFile({ ...input(e('a') + e('b'), e('a'), e('a') + e('b', 'edited')), topicGone: new Map([['b.md', false]]) });
    expect(kept).toMatchObject({ conflicts: [], warnings: ['memlint: .claude/memory/MEMORY.md: b.md: deleted in ours but edited in theirs; the edited entry is kept'] });
    expect('output' in kept && kept.output!.toString()).toBe(e('a') + e('b', 'edited'));
  });

  it('delete-vs-edit whose deleting side deleted the topic file too: a conflict of that entry, the edit inside it, either side OURS', () => {
    const gone = new Map([['b.md', true]]);
    const a = mergeMemoryFile({ ...input(e('a') + e('b') + e('c'), e('a') + e('c'), e('a') + e('b', 'edited') + e('c')), topicGone: gone });
    expect(a).toMatchObject({ conflicts: ['b.md: deleted with its topic file in ours, edited in theirs'] });
    expect('output' in a && a.output!.toString()).toBe(e('a') + '<<<<<<< ours (b.md: deleted with its topic file in ours, edited in theirs)\n=======\n' + e('b', 'edited') + '>>>>>>> theirs (b.md)\n' + e('c'));
    const b = mergeMemoryFile({ ...input(e('a') + e('b') + e('c'), e('a') + e('b', 'edited') + e('c'), e('a') + e('c')), topicGone: gone });
    expect(b).toMatchObject({ conflicts: ['b.md: deleted with its topic file in theirs, edited in ours'] });
    expect('output' in b && b.output!.toString()).toBe(e('a') + '<<<<<<< ours (b.md: deleted with its topic file in theirs, edited in ours)\n' + e('b', 'edited') + '=======\n>>>>>>> theirs (b.md)\n' + e('c'));
  });
});
