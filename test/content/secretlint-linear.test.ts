// secretlint's duplicate filter, in one pass (scripts/secretlint-linear.mjs): the same messages as
// its own, in every bundle that holds secretlint.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ORIGINAL_BODY, filterDuplicatedMessages, linearSecretlint } from '../../scripts/secretlint-linear.mjs';
import { ROOT } from '../helpers/repo.js';

type Message = { range: number[]; severity?: unknown; message?: unknown };

// secretlint's own filter, as its module writes it.
const isEqualMessage = (a: Message, b: Message) =>
  a.range[0] === b.range[0] && a.range[1] === b.range[1] && 'severity' in a && 'severity' in b && a.severity === b.severity && a.message === b.message;
const original = (messages: Message[]) => messages.filter((m, i) => !messages.slice(i + 1).some((r) => isEqualMessage(m, r)));

describe("secretlint's duplicate filter in one pass", () => {
  it('keeps what secretlint keeps, in its order (property: shared ranges, severities of other types, no severity)', () => {
    const message = fc.record(
      {
        range: fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 3 })).map(([a, b]) => [a, b]),
        severity: fc.constantFrom<unknown>('error', 'warning', 2, '2', undefined),
        message: fc.constantFrom<unknown>('a', 'b', 1, '1', undefined),
      },
      { requiredKeys: ['range'] },
    );
    fc.assert(
      fc.property(fc.array(message, { maxLength: 30 }), (ms) => {
        const out = filterDuplicatedMessages(ms);
        const want = original(ms);
        expect(out.length).toBe(want.length);
        out.forEach((m, i) => expect(m).toBe(want[i]));
      }),
      { numRuns: 5_000, seed: 7 },
    );
  });

  it('filters 100,000 messages, most of them duplicates', () => {
    const ms = Array.from({ length: 100_000 }, (_, i) => ({ range: [i % 1000, (i % 1000) + 5], severity: 'error', message: 'm' }));
    expect(filterDuplicatedMessages(ms)).toEqual(ms.slice(-1000));
  });

  it('is in every bundle that holds secretlint, and stops the build when secretlint changes', () => {
    const dist = join(ROOT, 'dist');
    const files = ['remark.mjs', 'main.mjs', 'merge.cjs', ...readdirSync(join(dist, 'chunks')).map((f) => `chunks/${f}`)];
    const holding = files.filter((f) => readFileSync(join(dist, f), 'utf8').includes('function filterDuplicatedMessages'));
    expect(holding.length).toBeGreaterThanOrEqual(1);
    for (const f of holding) expect({ f, linear: !readFileSync(join(dist, f), 'utf8').includes('restMessages') }).toEqual({ f, linear: true });
    const source = readFileSync(join(ROOT, 'node_modules', '@secretlint', 'core', 'module', 'messages', 'filter-duplicated-process.js'), 'utf8');
    expect(source).toContain(ORIGINAL_BODY);
    expect(linearSecretlint(source)).not.toContain('restMessages');
    expect(() => linearSecretlint(source.replace('messages.slice(index + 1)', 'messages.slice(index)'))).toThrow(/not the one scripts\/secretlint-linear\.mjs replaces/);
  });
});
