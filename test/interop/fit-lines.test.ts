// The hook's report is cut to Claude Code's limit by measuring each choice of how many lines to
// keep without joining them: the same text as joining at each choice (the reading it replaced).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fitLines } from '../../src/claude/hook-report.js';

/** The reading fitLines replaced: join the kept lines anew for each line dropped. */
function fitByJoining(lines: string[], tail: string[], limit: number): string {
  const encoded = (s: string) => JSON.stringify(s).length;
  let kept = lines.length;
  for (;;) {
    const dropped = lines.slice(kept).filter((l) => l.startsWith('- ')).length;
    const more = dropped > 0 ? [`… and ${dropped} more (run "npx memlint" to see all).`] : [];
    const text = [...lines.slice(0, kept), ...more, ...tail].join('\n');
    if (encoded(text) <= limit || kept <= 1) {
      if (encoded(text) <= limit) return text;
      let t = text;
      while (encoded(t) > limit) t = t.slice(0, Math.floor(t.length * 0.9));
      return `${t}…`;
    }
    kept--;
  }
}

describe('fitLines', () => {
  it('gives the text joining at each choice gives: escapes, quotes, astral and lone surrogates, control characters (property)', () => {
    const part = fc.constantFrom('- ', 'Also worth fixing (warnings):', 'a', '"', '\\', '\t', '\u0001', '😀', '\ud800', 'é', ' ', 'x'.repeat(40), '\n');
    const line = fc.array(part, { maxLength: 6 }).map((ps) => ps.join(''));
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), fc.array(line, { maxLength: 3 }), fc.integer({ min: 2, max: 600 }), (lines, tail, limit) => {
        expect(fitLines(lines, tail, limit)).toBe(fitByJoining(lines, tail, limit));
      }),
      { numRuns: 3000 },
    );
  });

  it('keeps what fits of 100,000 problems and says how many more there are', () => {
    const lines = ['memlint found problems:', ...Array.from({ length: 100_000 }, (_, i) => `- topic-${i}.md:1:1 duplicate entry`)];
    const text = fitLines(lines, ['Fix them.'], 10_000);
    expect(JSON.stringify(text).length).toBeLessThanOrEqual(10_000);
    const kept = text.split('\n').filter((l) => l.startsWith('- ')).length;
    expect(text).toContain(`… and ${100_000 - kept} more`);
    expect(text.endsWith('Fix them.')).toBe(true);
  });
});
