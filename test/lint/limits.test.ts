// Claude Code's index limits, measured as Claude Code measures them (README "index-max-lines and
// index-max-bytes"), and the size rules built on them. The fixtures cover a few shapes; here the
// cases are generated, each checked against an independent re-statement of
// truncateEntrypointContent.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatFileSize, indexVisibility, loadIndex, measureIndex, MAX_INDEX_LINES, MAX_INDEX_UNITS } from '../../src/memdir/limits.js';
import { lintMemdirs, resolveRules } from '../../src/lint/engine.js';
import { allRules } from '../../src/lint/rules/all.js';
import { tempDir } from '../helpers/repo.js';

const WARNING_TAIL = 'Only part of it was loaded. Keep index entries to one line under ~200 chars; move detail into topic files.';

/** truncateEntrypointContent as the facts state it: the oracle the implementation must agree with. */
function oracle(raw: string): string {
  const trimmed = raw.trim();
  const lines = trimmed.split('\n');
  const lineCount = lines.length;
  const byteCount = trimmed.length;
  const wasLineTruncated = lineCount > 200;
  const wasByteTruncated = byteCount > 25000;
  if (!wasLineTruncated && !wasByteTruncated) return trimmed;
  let truncated = wasLineTruncated ? lines.slice(0, 200).join('\n') : trimmed;
  if (truncated.length > 25000) {
    const cutAt = truncated.lastIndexOf('\n', 25000);
    truncated = truncated.slice(0, cutAt > 0 ? cutAt : 25000);
  }
  const size = (n: number) => `${(n / 1024).toFixed(1).replace(/\.0$/, '')}KB`;
  const reason =
    wasByteTruncated && !wasLineTruncated
      ? `${size(byteCount)} (limit: ${size(25000)}) — index entries are too long`
      : wasLineTruncated && !wasByteTruncated
        ? `${lineCount} lines (limit: 200)`
        : `${lineCount} lines and ${size(byteCount)}`;
  return `${truncated}\n\n> WARNING: MEMORY.md is ${reason}. ${WARNING_TAIL}`;
}

const entry = (n: number, hookLen = 20) => `- [Topic ${n}](topic_${n}.md) — ${'x'.repeat(hookLen)}`;
const entries = (count: number, hookLen = 20, from = 1) => Array.from({ length: count }, (_, i) => entry(from + i, hookLen));

describe('limits: constants and formatFileSize', () => {
  it('has Claude Code’s constants', () => {
    expect(MAX_INDEX_LINES).toBe(200);
    expect(MAX_INDEX_UNITS).toBe(25_000);
  });
  it('formats sizes as Claude Code does (one decimal, ".0" dropped)', () => {
    expect(formatFileSize(25000)).toBe('24.4KB');
    expect(formatFileSize(30000)).toBe('29.3KB');
    expect(formatFileSize(1024)).toBe('1KB');
    expect(formatFileSize(2048 + 51)).toBe('2KB');
    expect(formatFileSize(2048 + 52)).toBe('2.1KB');
  });
});

describe('limits: measureIndex', () => {
  it('counts UTF-16 code units, not characters or UTF-8 bytes', () => {
    const m = measureIndex('🚀字a');
    expect(m.units).toBe(4);
    expect(m.lines).toBe(1);
  });
  it('trims before counting lines and units', () => {
    const m = measureIndex('\n\n  - [A](a.md)\n- [B](b.md)  \n\n\n');
    expect(m.text).toBe('- [A](a.md)\n- [B](b.md)');
    expect(m.lines).toBe(2);
    expect(m.units).toBe(23);
  });
  it('strips frontmatter that starts on line 1, and only then', () => {
    expect(measureIndex('---\ntitle: x\n---\n- [A](a.md)\n').text).toBe('- [A](a.md)');
    expect(measureIndex('\n---\ntitle: x\n---\n- [A](a.md)\n').lines).toBe(4);
  });
  it('strips block HTML comments, keeps comments inside a line', () => {
    const raw = '<!-- a\nmulti-line\ncomment -->\n- [A](a.md) <!-- inline -->\n<!-- one line -->\n- [B](b.md)\n';
    expect(measureIndex(raw).text).toBe('- [A](a.md) <!-- inline -->\n- [B](b.md)');
  });
  it('strips only top-level comment blocks, as the block model reads them: one in a list item or in indented code stays', () => {
    const raw = '- [A](a.md)\n  <!-- part of the item -->\n\nText:\n\n    <!-- code -->\n<!-- top -->\n- [B](b.md)\n';
    expect(measureIndex(raw).text).toBe('- [A](a.md)\n  <!-- part of the item -->\n\nText:\n\n    <!-- code -->\n- [B](b.md)');
  });
  it('keeps a comment inside a fenced block', () => {
    const raw = '```\n<!-- shown -->\n```\n- [A](a.md)\n';
    expect(measureIndex(raw).text).toBe('```\n<!-- shown -->\n```\n- [A](a.md)');
  });
  it('counts the CR of CRLF lines as Claude Code does when no comment is present (split on \\n only)', () => {
    const m = measureIndex('- [A](a.md)\r\n- [B](b.md)\r\n');
    expect(m.lines).toBe(2);
    expect(m.units).toBe('- [A](a.md)\r\n- [B](b.md)'.length);
  });
  it('flags 201 lines and 25,001 units, not 200 and 25,000', () => {
    expect(measureIndex(entries(200).join('\n')).overLines).toBe(false);
    expect(measureIndex(entries(201).join('\n')).overLines).toBe(true);
    expect(measureIndex('x'.repeat(25000)).overUnits).toBe(false);
    expect(measureIndex('x'.repeat(25001)).overUnits).toBe(true);
  });
});

describe('limits: loadIndex (truncateEntrypointContent)', () => {
  it('returns the trimmed text unchanged under both limits', () => {
    const raw = `\n${entries(200).join('\n')}\n`;
    const l = loadIndex(raw);
    expect(l.truncated).toBe(false);
    expect(l.warning).toBeNull();
    expect(l.content).toBe(raw.trim());
  });
  it('keeps 200 of 250 lines, with the line warning verbatim', () => {
    const l = loadIndex(entries(250).join('\n'));
    expect(l.kept).toBe(entries(200).join('\n'));
    expect(l.warning).toBe(`> WARNING: MEMORY.md is 250 lines (limit: 200). ${WARNING_TAIL}`);
    expect(l.content).toBe(`${l.kept}\n\n${l.warning}`);
  });
  it('cuts at the last newline before 25,000 units, with the size warning verbatim', () => {
    const lines = entries(150, 180);
    const text = lines.join('\n');
    expect(text.length).toBeGreaterThan(25000);
    const l = loadIndex(text);
    expect(l.kept).toBe(text.slice(0, text.lastIndexOf('\n', 25000)));
    expect(l.warning).toBe(`> WARNING: MEMORY.md is ${formatFileSize(text.length)} (limit: 24.4KB) — index entries are too long. ${WARNING_TAIL}`);
  });
  it('says "N lines and SIZE" when both fire, measuring size on the whole trimmed text', () => {
    const text = entries(250, 80).join('\n');
    const l = loadIndex(text);
    expect(l.warning).toBe(`> WARNING: MEMORY.md is 250 lines and ${formatFileSize(text.length)}. ${WARNING_TAIL}`);
    // The first 200 lines are under 25,000 units: the line cut alone applies.
    expect(l.kept).toBe(entries(200, 80).join('\n'));
  });
  it('cuts at exactly 25,000 units when there is no newline to cut at', () => {
    const l = loadIndex('y'.repeat(30000));
    expect(l.kept).toBe('y'.repeat(25000));
  });
  it('agrees with the oracle on raw text (the agent-memory path, no stripping)', () => {
    const line = fc
      .tuple(fc.constantFrom('a', ' ', '字', '🚀', '\r', '\t', '-'), fc.nat({ max: 320 }))
      .map(([c, n]) => c.repeat(n));
    fc.assert(
      fc.property(fc.array(line, { minLength: 0, maxLength: 260, size: 'max' }), (ls) => {
        const raw = ls.join('\n');
        expect(loadIndex(raw, { strip: false }).content).toBe(oracle(raw));
      }),
      { numRuns: 150 },
    );
  });
  it('agrees with the oracle after stripping: frontmatter and comment blocks never count', () => {
    const body = entries(230, 60).join('\n');
    const raw = `---\nname: index\n---\n<!--\n${'hidden\n'.repeat(300)}-->\n${body}\n`;
    expect(loadIndex(raw).content).toBe(oracle(body));
  });
});

describe('limits: indexVisibility maps the cut back to file lines', () => {
  it('is null when everything loads', () => {
    expect(indexVisibility(entries(200).join('\n')).firstCutLine).toBeNull();
  });
  it('skips frontmatter, comments and leading blank lines when numbering', () => {
    const raw = `---\ntitle: x\n---\n\n<!--\nnote\n-->\n\n${entries(201).join('\n')}\n`;
    // 8 lines before the entries; the 201st entry is on line 209.
    const v = indexVisibility(raw);
    expect(v.firstCutLine).toBe(209);
    expect(v.cutBy).toBe('lines');
  });
  it('finds the first line past 25,000 units, counting the CR of CRLF lines', () => {
    const lines = entries(150, 170);
    for (const eol of ['\n', '\r\n']) {
      const raw = lines.join(eol) + eol;
      const kept = loadIndex(raw).kept;
      const keptLines = kept.split('\n').length;
      const v = indexVisibility(raw);
      expect(v.cutBy).toBe('units');
      expect(v.firstCutLine).toBe(keptLines + 1);
    }
  });
  it('agrees with loadIndex on random indexes: the lines before firstCutLine are what is kept', () => {
    const line = fc.oneof(
      fc.nat({ max: 400 }).map((n) => `- [T](t.md) — ${'w'.repeat(n)}`),
      fc.nat({ max: 120 }).map((n) => '🚀'.repeat(n)),
      fc.constantFrom('', '## Section', '   ', 'plain text'),
    );
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 260, size: 'max' }), fc.constantFrom('\n', '\r\n'), (ls, eol) => {
        const raw = ls.join(eol) + eol;
        const loaded = loadIndex(raw);
        const v = indexVisibility(raw);
        if (!loaded.truncated) {
          expect(v.firstCutLine).toBeNull();
          return;
        }
        if (loaded.kept.length === MAX_INDEX_UNITS && !loaded.kept.includes('\n')) return; // cut inside the first line
        expect(v.firstCutLine).not.toBeNull();
        const before = raw.split('\n').slice(0, v.firstCutLine! - 1).join('\n').trim();
        expect(before).toBe(loaded.kept.trim());
      }),
      { numRuns: 150 },
    );
  });
  it('agrees with loadIndex when frontmatter and comment blocks are stripped first', () => {
    const line = fc.oneof(
      fc.nat({ max: 400 }).map((n) => `- [T](t.md) — ${'w'.repeat(n)}`),
      fc.constantFrom('', '## Section', '<!-- one-line comment -->', '<!--\nspread\nover lines\n-->', '<!-- note -->trailing text'),
    );
    fc.assert(
      fc.property(fc.boolean(), fc.array(line, { minLength: 1, maxLength: 300, size: 'max' }), (fm, ls) => {
        const raw = (fm ? '---\nname: index\n---\n' : '') + ls.join('\n') + '\n';
        const loaded = loadIndex(raw);
        const v = indexVisibility(raw);
        expect(v.firstCutLine === null).toBe(!loaded.truncated);
        if (v.firstCutLine === null || (!loaded.kept.includes('\n') && loaded.kept.length === MAX_INDEX_UNITS)) return;
        const prefix = raw.split('\n').slice(0, v.firstCutLine - 1).join('\n');
        expect(measureIndex(prefix).text).toBe(loaded.kept.trim());
      }),
      { numRuns: 150 },
    );
  });
});

// The size rules, run through the engine on generated memdirs: the exact line reported and the
// entries named.
async function lintIndex(indexText: string, ruleIds: string[]) {
  const dir = join(tempDir('memlint-limits-'), 'mem');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'MEMORY.md'), indexText);
  const config = Object.fromEntries(allRules.map((r) => [r.id, ruleIds.includes(r.id) ? r.defaultSeverity : 'off'] as const));
  const { results } = await lintMemdirs({ memdirs: [{ dir, repoRoot: null, reason: 'path' }], env: process.env, rules: resolveRules(config) });
  return results.flatMap((r) => r.messages);
}

describe('index-max-lines and index-max-bytes on generated indexes', () => {
  it('index-max-lines: 230 entries under a heading: cut from line 201, the 31 newest named', async () => {
    const msgs = await lintIndex(`# Memory\n${entries(230).join('\n')}\n`, ['index-max-lines', 'index-max-bytes']);
    expect(msgs).toHaveLength(1);
    expect(msgs[0]).toMatchObject({ ruleId: 'index-max-lines', line: 201, column: 1, severity: 2 });
    expect(msgs[0]!.message).toBe(
      'MEMORY.md is 231 lines as Claude Code measures it (limit 200): from line 201 on the agent sees nothing; entries not loaded: topic_200.md, topic_201.md, topic_202.md, topic_203.md, topic_204.md and 26 more',
    );
  });
  it('index-max-lines: exactly 200 measured lines pass, whatever surrounds them', async () => {
    const raw = `---\nx: 1\n---\n<!-- note -->\n\n${entries(200).join('\n')}\n\n\n`;
    expect(await lintIndex(raw, ['index-max-lines'])).toEqual([]);
  });
  it('index-max-bytes: the first line past 25,000 units is reported with the entries it hides', async () => {
    const lines = entries(140, 180);
    const raw = lines.join('\n') + '\n';
    const kept = loadIndex(raw).kept.split('\n').length;
    const msgs = await lintIndex(raw, ['index-max-lines', 'index-max-bytes']);
    expect(msgs).toHaveLength(1);
    const hidden = Array.from({ length: 140 - kept }, (_, i) => `topic_${kept + 1 + i}.md`);
    expect(msgs[0]).toMatchObject({ ruleId: 'index-max-bytes', line: kept + 1, column: 1 });
    expect(msgs[0]!.message).toBe(
      `MEMORY.md is ${raw.trim().length} UTF-16 units, ${formatFileSize(raw.trim().length)} (limit 25000, 24.4KB): from line ${kept + 1} on the agent sees nothing; entries not loaded: ${hidden.slice(0, 5).join(', ')}${hidden.length > 5 ? ` and ${hidden.length - 5} more` : ''}`,
    );
  });
  it('index-max-bytes: 25,000 units exactly pass; one more fails', async () => {
    const head = entries(10).join('\n') + '\n';
    const pad = (n: number) => `${head}- [Pad](pad.md) — ${'p'.repeat(n - head.length - '- [Pad](pad.md) — '.length)}`;
    expect(pad(25000).length).toBe(25000);
    expect(await lintIndex(pad(25000), ['index-max-bytes'])).toEqual([]);
    const msgs = await lintIndex(pad(25001), ['index-max-bytes']);
    expect(msgs.map((m) => [m.ruleId, m.line])).toEqual([['index-max-bytes', 11]]);
    expect(msgs[0]!.message).toContain('entries not loaded: pad.md');
  });
  it('index-max-bytes: a first line longer than 25,000 units is cut inside; its entry is seen, the rest not', async () => {
    const raw = `- [A](a.md) — ${'y'.repeat(30000)}\n- [B](b.md) — b\n`;
    const msgs = await lintIndex(raw, ['index-max-bytes']);
    expect(msgs.map((m) => [m.line, m.message])).toEqual([
      [1, `MEMORY.md is ${raw.trim().length} UTF-16 units, 29.3KB (limit 25000, 24.4KB): line 1 is cut off after 25000 units and the agent sees nothing after it; entries not loaded: b.md`],
    ]);
  });
  it('both rules fire when both limits are passed, each at its own line', async () => {
    const raw = entries(260, 120).join('\n');
    const msgs = await lintIndex(raw, ['index-max-lines', 'index-max-bytes']);
    const byRule = Object.fromEntries(msgs.map((m) => [m.ruleId, m.line]));
    // 200 lines of ~150 units exceed 25,000: the size cut comes first.
    const kept = loadIndex(raw).kept.split('\n').length;
    expect(kept).toBeLessThan(200);
    expect(byRule).toEqual({ 'index-max-lines': kept + 1, 'index-max-bytes': kept + 1 });
  });
});
