import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { LinkedFiles } from '../../src/consolidate/linked-files.js';
import { renameLinks } from '../../src/memdir/links.js';

// Names a rename may meet: plain ones, one a prefix of another, and names the line-wise rename
// leaves to renameLinks itself (a backtick, a pipe, a bracket).
const NAMES = ['a', 'ab', 'Topic 1', 'Topic 10', 'x-y', 'q`r', 'p|s', 'b]c', 'e\\f'];
const name = fc.constantFrom(...NAMES);

const linePart = fc.oneof(
  name.map((n) => `[[${n}]]`),
  name.map((n) => `[[ ${n} ]]`),
  name.map((n) => `[[${n}|shown]]`),
  name.map((n) => `[[${n}#part]]`),
  name.map((n) => `\`[[${n}]]\``),
  fc.constantFrom('text', '`', '[[', ']]', '|', ' ', '- ', '> ', '# ', '```', '    ', '---', '<div>', '|---|', ''),
);
const line = fc.array(linePart, { maxLength: 5 }).map((parts) => parts.join(''));
const eol = fc.constantFrom('\n', '\n', '\n', '\r\n', '\r');
const text = fc
  .tuple(fc.boolean(), fc.array(fc.tuple(line, eol), { maxLength: 12 }))
  .map(([front, lines]) => (front ? '---\nname: x [[a]]\n---\n' : '') + lines.map(([l, e]) => l + e).join(''));

const REL = ['MEMORY.md', 'one.md', 'two.md', 'logs/2026/12/2026-12-04.md'];
const op = fc.oneof(
  fc.record({ kind: fc.constant('rename' as const), from: name, to: name, skipIndex: fc.boolean() }),
  fc.record({ kind: fc.constant('set' as const), rel: fc.constantFrom(...REL), text }),
  fc.record({ kind: fc.constant('delete' as const), rel: fc.constantFrom(...REL) }),
  fc.record({ kind: fc.constant('get' as const), rel: fc.constantFrom(...REL) }),
);

describe('LinkedFiles.renameLinks', () => {
  it('gives what renameLinks gives on every file, whatever was set, deleted or read between renames', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom(...REL), text), { maxLength: 4 }), fc.array(op, { maxLength: 12 }), (start, ops) => {
        const reference = new Map(start);
        const files = new LinkedFiles(new Map(start));
        for (const o of ops) {
          if (o.kind === 'rename') {
            const skip = (rel: string) => rel.startsWith('logs/') || (o.skipIndex && rel === 'MEMORY.md');
            for (const [rel, t] of reference) {
              if (skip(rel)) continue;
              const renamed = renameLinks(t, o.from, o.to);
              if (renamed !== t) reference.set(rel, renamed);
            }
            files.renameLinks(o.from, o.to, skip);
          } else if (o.kind === 'set') {
            reference.set(o.rel, o.text);
            files.set(o.rel, o.text);
          } else if (o.kind === 'delete') {
            reference.delete(o.rel);
            files.delete(o.rel);
          } else {
            expect(files.get(o.rel)).toBe(reference.get(o.rel));
          }
        }
        expect(new Map(files)).toEqual(reference);
        expect([...files.values()]).toEqual([...reference.values()]);
      }),
      { numRuns: 3000 },
    );
  });

  it('visits only the lines holding the link: a list linking thousands of renamed memories', () => {
    const names = Array.from({ length: 2000 }, (_, i) => `Topic ${i}`);
    const list = names.map((n) => `- [[${n}]] and \`[[${n}]]\` in code\n`).join('');
    const files = new LinkedFiles(new Map([['links.md', list], ['other.md', 'no links\n']]));
    names.forEach((n, i) => {
      if (i % 2 === 1) files.renameLinks(n, names[i - 1]!, () => false);
    });
    // renameLinks renames the whole line once a link on it is renamed, the example in code too.
    const expected = names.map((_, i) => `- [[${names[i - (i % 2)]}]] and \`[[${names[i - (i % 2)]}]]\` in code\n`).join('');
    expect(files.get('links.md')).toBe(expected);
    expect(files.get('other.md')).toBe('no links\n');
  });
});
