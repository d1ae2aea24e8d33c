// MEMORY.md model: lossless parse/serialize, the entry grammar, normalised keys.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { entries, formatEntry, normalizeTarget, parseEntry, parseIndex, serializeIndex } from '../../src/memdir/memory-index.js';
import { dominantEol, lineTexts, splitLines } from '../../src/memdir/lines.js';

describe('parseIndex/serializeIndex: lossless, byte for byte', () => {
  const cases: Record<string, string> = {
    empty: '',
    'LF with final newline': '# Memory\n- [A](a.md) — a\n',
    'no final newline': '# Memory\n- [A](a.md) — a',
    CRLF: '# Memory\r\n\r\n- [A](a.md) — a\r\n',
    'CRLF, no final newline': '- [A](a.md) — a\r\n- [B](b.md)',
    'lone CR': '- [A](a.md)\r- [B](b.md)\r',
    'mixed endings': '- [A](a.md)\n- [B](b.md)\r\n- [C](c.md)\r',
    BOM: '\uFEFF# Memory\n- [A](a.md) — a\n',
    'BOM and CRLF': '\uFEFF- [A](a.md)\r\n',
    'unknown lines': 'Some prose.\n  indented text\n| a | table |\n> quote\n- a list line\n1. numbered\n',
    'trailing whitespace': '- [A](a.md) — a   \n\t\n   \n',
    'only newlines': '\n\n\n',
    frontmatter: '---\ntitle: x\n---\n- [A](a.md)\n',
    'comment and fence': '<!--\n- [X](x.md)\n-->\n```\n- [Y](y.md)\n```\n- [A](a.md)\n',
  };
  for (const [name, text] of Object.entries(cases)) {
    it(`round-trips: ${name}`, () => {
      expect(serializeIndex(parseIndex(text))).toBe(text);
    });
  }

  it('round-trips any text (property)', () => {
    const piece = fc.oneof(
      fc.constantFrom('- [A](a.md) — hook', '* [B](./b.md): x', '+ [C [d]](sub/c.md)', '## H', '<!--', '-->', '```', '---', '\uFEFF', '—', '字', '🚀', ' ', '\t'),
      fc.string({ maxLength: 12 }),
      fc.constantFrom('\n', '\r\n', '\r'),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), (parts) => {
        const text = parts.join('');
        const parsed = parseIndex(text);
        expect(serializeIndex(parsed)).toBe(text);
        // Offsets point at each line's text in the whole file.
        for (const l of parsed.lines) expect(text.slice(l.offset, l.offset + l.text.length + l.eol.length)).toBe(l.text + l.eol);
      }),
      { numRuns: 400 },
    );
  });

  it('round-trips arbitrary Unicode strings (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        expect(serializeIndex(parseIndex(text))).toBe(text);
      }),
      { numRuns: 300 },
    );
  });

  it('numbers lines from 1 and records each line ending', () => {
    const p = parseIndex('\uFEFFa\r\nb\nc');
    expect(p.bom).toBe('\uFEFF');
    expect(p.lines.map((l) => [l.line, l.text, l.eol, l.offset])).toEqual([
      [1, 'a', '\r\n', 1],
      [2, 'b', '\n', 4],
      [3, 'c', '', 6],
    ]);
  });
});

describe('parseIndex: line kinds', () => {
  it('tells entries, lists, headings, blanks, comments, fences, frontmatter and prose apart', () => {
    const text = [
      '---',
      'title: x',
      '---',
      '# Memory',
      '',
      '- [A](a.md) — a',
      '- a content line',
      '<!-- a',
      '- [X](x.md) — inside a comment',
      '-->',
      '~~~',
      '- [Y](y.md) — inside a fence',
      '~~~',
      'Prose.',
    ].join('\n');
    expect(parseIndex(text).lines.map((l) => l.kind)).toEqual([
      'frontmatter',
      'frontmatter',
      'frontmatter',
      'heading',
      'blank',
      'entry',
      'list',
      'html',
      'html',
      'html',
      'code',
      'code',
      'code',
      'other',
    ]);
  });
  it('takes a lone --- on line 1 for a thematic break, not unclosed frontmatter', () => {
    expect(parseIndex('---\n- [A](a.md) — a\n- [B](b.md)\n').lines.map((l) => l.kind)).toEqual(['other', 'entry', 'entry']);
  });
  it('does not take a later --- for frontmatter', () => {
    expect(parseIndex('# Memory\n---\n- [A](a.md)\n').lines.map((l) => l.kind)).toEqual(['heading', 'other', 'entry']);
  });
  it('keeps the entries of a CRLF index free of CR', () => {
    const [e] = entries(parseIndex('- [A](a.md) — hook\r\n'));
    expect(e!.entry).toMatchObject({ target: 'a.md', hook: 'hook' });
  });
});

describe('parseEntry: the entry grammar', () => {
  it.each([
    ['- [Testing](feedback_testing.md) — real database', '-', ' — ', 'real database'],
    ['* [Testing](feedback_testing.md) — real database', '*', ' — ', 'real database'],
    ['+ [Testing](feedback_testing.md) — real database', '+', ' — ', 'real database'],
    ['- [Testing](feedback_testing.md) – real database', '-', ' – ', 'real database'],
    ['- [Testing](feedback_testing.md) - real database', '-', ' - ', 'real database'],
    ['- [Testing](feedback_testing.md): real database', '-', ': ', 'real database'],
    ['- [Testing](feedback_testing.md)—real database', '-', '—', 'real database'],
  ])('%s', (line, bullet, separator, hook) => {
    const e = parseEntry(line)!;
    expect(e).toBeDefined();
    expect(e).toMatchObject({ bullet, title: 'Testing', target: 'feedback_testing.md', key: 'feedback_testing.md', separator, hook });
    expect(line.slice(e.hookStart)).toBe(hook);
  });

  it('accepts an entry without a hook', () => {
    expect(parseEntry('- [Testing](feedback_testing.md)')).toMatchObject({ hook: '', separator: '', hookStart: -1 });
    expect(parseEntry('- [Testing](feedback_testing.md) — ')).toMatchObject({ hook: '', hookStart: -1 });
  });

  it('accepts titles with brackets, escaped or balanced', () => {
    expect(parseEntry('- [Fix [WIP] notes](wip.md) — x')).toMatchObject({ title: 'Fix [WIP] notes', target: 'wip.md' });
    expect(parseEntry('- [a \\] b](x.md)')).toMatchObject({ title: 'a \\] b', target: 'x.md' });
    expect(parseEntry('- [[draft]](x.md)')).toMatchObject({ title: '[draft]', target: 'x.md' });
  });

  it('accepts targets in subfolders, with ./, in angle brackets, with a fragment or a link title', () => {
    expect(parseEntry('- [T](feedback/x.md) — h')).toMatchObject({ target: 'feedback/x.md', key: 'feedback/x.md' });
    expect(parseEntry('- [T](./x.md) — h')).toMatchObject({ target: './x.md', key: 'x.md' });
    expect(parseEntry('- [T](<my file.md>) — h')).toMatchObject({ target: '<my file.md>', key: 'my file.md' });
    expect(parseEntry('- [T](x.md#why) — h')).toMatchObject({ key: 'x.md' });
    expect(parseEntry('- [T](x.md "title") — h')).toMatchObject({ target: 'x.md', hook: 'h' });
    expect(parseEntry('- [T](x_(old).md) — h')).toMatchObject({ target: 'x_(old).md' });
  });

  it('keeps the indentation and finds the hook after trailing spaces', () => {
    const line = '  - [T](x.md) — the hook   ';
    const e = parseEntry(line)!;
    expect(e.indent).toBe('  ');
    expect(e.hook).toBe('the hook');
    expect(line.slice(e.hookStart, e.hookStart + e.hook.length)).toBe('the hook');
  });

  it('keeps CJK and emoji hooks whole', () => {
    const e = parseEntry('- [语言](user_language.md) — 设计讨论用中文😀')!;
    expect(e.hook).toBe('设计讨论用中文😀');
  });

  it.each([
    '- Always run integration tests',
    '- See [Deploys](deploys.md) for the schedule',
    '1. [Style](style.md) — terse',
    '- [Bare](bare.md) no separator',
    '[A](a.md) — no bullet',
    '-[A](a.md) — no space after the bullet',
  ])('is not an entry: %s', (line) => {
    expect(parseEntry(line)).toBeUndefined();
  });

  it('reads a non-canonical entry with a 1 MB run of spaces in its hook without hanging', () => {
    const hook = `a${' '.repeat(1 << 20)}x`;
    const [e] = entries(parseIndex(`1. [T](t.md) — ${hook}${' '.repeat(1 << 10)}\n`));
    expect(e!.entry).toMatchObject({ canonical: false, key: 't.md', bullet: '1.' });
    expect(e!.entry.hook).toBe(hook);
  });

  it('parses a 1 MB line in linear time, without hanging', () => {
    expect(parseEntry(`- [T](t.md) — ${'x'.repeat(1 << 20)}`)!.hook.length).toBe(1 << 20);
    expect(parseEntry(`- ${'['.repeat(1 << 16)}`)).toBeUndefined();
    expect(parseEntry(`- [T](t.md) — ${'a '.repeat(1 << 18)}`)!.hook.length).toBe((1 << 19) - 1);
  });
});

describe('normalizeTarget: the identity of an entry', () => {
  it.each([
    ['x.md', 'x.md'],
    ['./x.md', 'x.md'],
    ['<x.md>', 'x.md'],
    ['x.md#part', 'x.md'],
    ['sub/../x.md', 'x.md'],
    ['sub//x.md', 'sub/x.md'],
    ['my%20file.md', 'my file.md'],
    ['sub\\x.md', 'sub/x.md'],
    ['../x.md', '../x.md'],
    ['bad%zz.md', 'bad%zz.md'],
  ])('%s -> %s', (target, key) => {
    expect(normalizeTarget(target)).toBe(key);
  });
  it('normalises Unicode to NFC (a name typed on macOS matches)', () => {
    expect(normalizeTarget('cafe\u0301.md')).toBe('caf\u00e9.md');
  });
});

describe('helpers', () => {
  it('splitLines keeps every character', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (s) => {
        expect(splitLines(s).map((l) => l.text + l.eol).join('')).toBe(s);
      }),
    );
  });
  it('splitLines cuts at every \\n, \\r\\n and lone \\r, with or without a carriage return in the text', () => {
    const text = fc.array(fc.constantFrom('a', 'bc', ' ', '\n', '\r', '\r\n', '下周'), { maxLength: 30 }).map((xs) => xs.join(''));
    fc.assert(
      fc.property(text, (s) => {
        const lines = splitLines(s);
        let offset = 0;
        for (const [i, l] of lines.entries()) {
          expect(l.offset).toBe(offset);
          expect(l.text).not.toMatch(/[\r\n]/);
          // Only the last line may end without an ending, and a \r is never cut from its \n.
          expect(l.eol === '' ? i === lines.length - 1 : ['\n', '\r\n', '\r'].includes(l.eol)).toBe(true);
          if (l.eol === '\r') expect(s[offset + l.text.length + 1]).not.toBe('\n');
          offset += l.text.length + l.eol.length;
        }
        expect(offset).toBe(s.length);
        expect(lines.length).toBe(s === '' ? 0 : s.split(/\r\n|\r|\n/).length - (/[\r\n]$/.test(s) ? 1 : 0));
      }),
    );
  });
  it('lineTexts are the texts of splitLines, with or without a carriage return', () => {
    const text = fc.array(fc.constantFrom('a', 'bc', ' ', '\n', '\r', '\r\n', '下周'), { maxLength: 30 }).map((xs) => xs.join(''));
    fc.assert(
      fc.property(text, (s) => {
        expect(lineTexts(s)).toEqual(splitLines(s).map((l) => l.text));
      }),
      { numRuns: 2000 },
    );
    for (const s of ['', '\n', '\r', '\r\n', 'a', 'a\n', '\n\n', 'a\r\n\r\n', '\r\r']) expect(lineTexts(s)).toEqual(splitLines(s).map((l) => l.text));
  });
  it('dominantEol picks the more common ending', () => {
    expect(dominantEol('a\r\nb\r\nc\n')).toBe('\r\n');
    expect(dominantEol('a\nb\nc\r\n')).toBe('\n');
    expect(dominantEol('no newline')).toBe('\n');
  });
  it('formatEntry writes the canonical shape, hook optional', () => {
    expect(formatEntry('Testing', 'feedback_testing.md', 'real database')).toBe('- [Testing](feedback_testing.md) — real database');
    expect(formatEntry('Testing', 'feedback_testing.md', '')).toBe('- [Testing](feedback_testing.md)');
    expect(parseEntry(formatEntry('Fix [WIP]', 'sub/wip.md', 'hook'))).toMatchObject({ title: 'Fix [WIP]', key: 'sub/wip.md', hook: 'hook' });
  });
});
