// Topic files: frontmatter in both shapes, positions of errors, the 30-line window.
import { describe, expect, it } from 'vitest';
import { findFrontmatter, frontmatterKeyLine, parseTopic, parseYaml } from '../../src/memdir/topic.js';
import { isMemoryType, MEMORY_TYPES } from '../../src/memdir/types.js';

const fm = (...lines: string[]) => `---\n${lines.join('\n')}\n---\n`;

describe('parseTopic: both frontmatter shapes', () => {
  it('reads type at the top level', () => {
    const t = parseTopic(fm('name: Testing', 'description: Real database', 'type: feedback') + 'Body.\n');
    expect(t).toMatchObject({ name: 'Testing', description: 'Real database', type: 'feedback', typeAt: 'top', body: 'Body.\n', bodyLine: 6 });
    expect(t.frontmatter).toMatchObject({ openLine: 1, closeLine: 5, error: null });
  });

  it('reads type, modified and originSessionId nested under metadata:', () => {
    const t = parseTopic(
      fm('name: Deploys', 'description: Tuesdays', 'metadata:', '  type: project', '  originSessionId: 0b5c1d2e', '  modified: 2026-11-02T09:14:00Z'),
    );
    expect(t).toMatchObject({ type: 'project', typeAt: 'metadata' });
    expect(t.modified).toBe('2026-11-02T09:14:00.000Z');
    expect((t.frontmatter!.data!.metadata as Record<string, unknown>).originSessionId).toBe('0b5c1d2e');
  });

  it('accepts `metadata: ` with a trailing space', () => {
    const t = parseTopic(fm('name: Deploys', 'description: Tuesdays', 'metadata: ', '  type: project'));
    expect(t.frontmatter!.error).toBeNull();
    expect(t).toMatchObject({ type: 'project', typeAt: 'metadata' });
  });

  it('prefers a top-level type over a nested one', () => {
    const t = parseTopic(fm('name: X', 'description: Y', 'type: user', 'metadata:', '  type: project'));
    expect(t).toMatchObject({ type: 'user', typeAt: 'top' });
  });

  it('keeps other keys', () => {
    const t = parseTopic(fm('name: X', 'description: Y', 'type: user', 'tags: [a, b]'));
    expect(t.frontmatter!.data!.tags).toEqual(['a', 'b']);
  });

  it('reads a quoted description, colons and all', () => {
    expect(parseTopic(fm('name: X', 'description: "Deploys: Tuesdays, never Fridays"', 'type: project')).description).toBe('Deploys: Tuesdays, never Fridays');
    expect(parseTopic(fm('name: X', "description: 'It''s Tuesday'", 'type: project')).description).toBe("It's Tuesday");
  });

  it('handles CRLF and a BOM', () => {
    const t = parseTopic('\uFEFF---\r\nname: X\r\ndescription: Y\r\ntype: user\r\n---\r\nBody.\r\n');
    expect(t).toMatchObject({ bom: '\uFEFF', name: 'X', description: 'Y', type: 'user', body: 'Body.\r\n', bodyLine: 6 });
  });

  it('has no frontmatter unless `---` is on line 1', () => {
    expect(parseTopic('# Title\n---\nname: X\n---\n').frontmatter).toBeNull();
    expect(parseTopic('\n---\nname: X\n---\n').frontmatter).toBeNull();
    expect(parseTopic('').frontmatter).toBeNull();
  });

  it('accepts `...` as the closing fence, and an empty frontmatter', () => {
    expect(parseTopic('---\nname: X\n...\nBody\n')).toMatchObject({ name: 'X', bodyLine: 4 });
    expect(parseTopic('---\n---\nBody\n').frontmatter).toMatchObject({ data: {}, error: null });
  });
});

describe('parseTopic: the 30-line window', () => {
  const keys = (n: number) => Array.from({ length: n }, (_, i) => `k${i}: v`);
  it('accepts frontmatter closed on line 30', () => {
    const t = parseTopic(fm(...keys(28)));
    expect(t.frontmatter).toMatchObject({ closeLine: 30, error: null });
  });
  it('reports frontmatter closed on line 31, at that line, and still reads it', () => {
    const t = parseTopic(fm('name: X', ...keys(28)));
    expect(t.frontmatter!.closeLine).toBe(31);
    expect(t.frontmatter!.error).toEqual({ message: 'frontmatter closes on line 31: Claude Code reads only the first 30 lines', line: 31, column: 1 });
    expect(t.name).toBe('X');
  });
  it('reports frontmatter that is never closed', () => {
    const t = parseTopic('---\nname: X\ndescription: Y\n');
    expect(t.frontmatter).toMatchObject({ closeLine: 0, data: null });
    expect(t.frontmatter!.error).toMatchObject({ line: 1, column: 1 });
    expect(t.body).toBe('');
  });
});

describe('parseYaml: errors with the line and column in the file', () => {
  it.each([
    // [yaml lines, file line, column]
    [['name: X', 'description: Deploys: Tuesdays', 'type: project'], 3, 21],
    [['name: X', 'type: user', 'type: feedback'], 4, 1],
    [['x: : y'], 2, 4],
    [['name: X', '  bad: indentation'], 3, 6],
  ] as const)('%j -> line %i, column %i', (lines, line, column) => {
    const t = parseTopic(fm(...lines));
    expect(t.frontmatter!.data).toBeNull();
    expect(t.frontmatter!.error).toMatchObject({ line, column });
    expect(t.frontmatter!.error!.message).not.toContain('\n');
  });

  it('positions stay right with CRLF line endings', () => {
    const t = parseTopic('---\r\nname: X\r\ndescription: Deploys: Tuesdays\r\n---\r\n');
    expect(t.frontmatter!.error).toMatchObject({ line: 3, column: 21 });
  });

  it('rejects frontmatter that is not a mapping', () => {
    expect(parseYaml('- a\n- b')).toMatchObject({ data: null, error: { message: 'frontmatter is not a mapping of keys to values' } });
    expect(parseYaml('just text').data).toBeNull();
  });

  it('parses the same text twice the same way (no shared cache surprises)', () => {
    const a = parseYaml('name: X\ntype: user');
    a.data!.name = 'changed';
    expect(parseYaml('name: X\ntype: user').data!.name).toBe('X');
  });
});

describe('frontmatterKeyLine', () => {
  it('finds a top-level key, then one under metadata:', () => {
    const t = parseTopic(fm('name: X', 'description: Y', 'metadata:', '  originSessionId: s', '  type: project'));
    expect(frontmatterKeyLine(t, 'name')).toBe(2);
    expect(frontmatterKeyLine(t, 'type')).toBe(6);
    expect(frontmatterKeyLine(t, 'missing')).toBe(0);
  });
  it('ignores a key of the same name nested elsewhere or inside a block scalar', () => {
    const t = parseTopic(fm('author:', '  name: Mei', 'description: |', '  type: not a key', 'other: 1'));
    expect(frontmatterKeyLine(t, 'name')).toBe(0);
    expect(frontmatterKeyLine(t, 'type')).toBe(0);
  });
});

describe('findFrontmatter', () => {
  it('gives the offset where the body starts', () => {
    const text = '---\nname: X\n---\nBody';
    const f = findFrontmatter(text)!;
    expect(text.slice(f.endOffset)).toBe('Body');
    expect(f.yaml).toBe('name: X');
  });
});

describe('memory types', () => {
  it('are the four of Claude Code, exactly', () => {
    expect(MEMORY_TYPES).toEqual(['user', 'feedback', 'project', 'reference']);
    expect(isMemoryType('feedback')).toBe(true);
    expect(isMemoryType('Feedback')).toBe(false);
    expect(isMemoryType(undefined)).toBe(false);
  });
});
