// Properties of the index merge over generated indexes (fast-check): nothing lost unless deleted
// on one side and unchanged on the other, the byte-for-byte identities, the same entry set with
// the sides swapped, and an output that re-parses.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeIndex, sideLines } from '../../src/merge/memory-index.js';
import { mergeLog } from '../../src/merge/log.js';
import { mergeTopic } from '../../src/merge/topic.js';
import { entryIdentity, parseIndex, serializeIndex } from '../../src/memdir/memory-index.js';
import { splitLines } from '../../src/memdir/lines.js';

// Link targets; two sections of one file are two entries to the merge (entryIdentity).
const KEYS = [...Array.from({ length: 12 }, (_, i) => `topic_${i}.md`), 'deploys.md#when', 'deploys.md#who'];
const HOOKS = ['short hook', 'a longer hook about testing', '用中文回答', 'hook with: colon', 'edited'];

interface Doc {
  lines: string[];
}

const entryLine = (target: string, hook: string, bullet = '-') => `${bullet} [${target.replace(/\.md(#.*)?$/, '$1').replace('_', ' ')}](${target}) — ${hook}`;

const baseArb: fc.Arbitrary<Doc> = fc
  .record({
    keys: fc.shuffledSubarray(KEYS, { minLength: 0, maxLength: 10 }),
    hooks: fc.array(fc.constantFrom(...HOOKS), { minLength: 10, maxLength: 10 }),
    sections: fc.boolean(),
  })
  .map(({ keys, hooks, sections }) => {
    const lines = ['# Memory index', ''];
    keys.forEach((k, i) => {
      if (sections && i === Math.floor(keys.length / 2)) lines.push('', '## More');
      lines.push(entryLine(k, hooks[i]!));
    });
    return { lines };
  });

type Op =
  | { op: 'delete'; at: number }
  | { op: 'edit'; at: number; hook: string }
  | { op: 'insert'; at: number; key: number; hook: string }
  | { op: 'move'; from: number; to: number }
  | { op: 'prose'; at: number; text: string }
  | { op: 'duplicate'; at: number; to: number; hook: string }
  | { op: 'repeat'; at: number; to: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ op: fc.constant('delete' as const), at: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('edit' as const), at: fc.nat(), hook: fc.constantFrom(...HOOKS, 'ours words', 'theirs words') }) },
  { weight: 4, arbitrary: fc.record({ op: fc.constant('insert' as const), at: fc.nat(), key: fc.nat({ max: KEYS.length - 1 }), hook: fc.constantFrom(...HOOKS) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('move' as const), from: fc.nat(), to: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('prose' as const), at: fc.nat(), text: fc.constantFrom('Keep it short.', 'Notes below.', '') }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('duplicate' as const), at: fc.nat(), to: fc.nat(), hook: fc.constantFrom(...HOOKS) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('repeat' as const), at: fc.nat(), to: fc.nat() }) },
);

function keyOf(line: string): string | undefined {
  const entry = parseIndex(line).lines[0]?.entry;
  return entry && entryIdentity(entry);
}

function apply(doc: Doc, ops: Op[]): string[] {
  const lines = [...doc.lines];
  const entryIdx = () => lines.flatMap((l, i) => (keyOf(l) ? [i] : []));
  for (const o of ops) {
    const idx = entryIdx();
    if (o.op === 'delete' && idx.length) lines.splice(idx[o.at % idx.length]!, 1);
    else if (o.op === 'edit' && idx.length) {
      const i = idx[o.at % idx.length]!;
      const key = keyOf(lines[i]!)!;
      lines[i] = entryLine(key, o.hook);
    } else if (o.op === 'insert') {
      const key = KEYS[o.key]!;
      if (lines.some((l) => keyOf(l) === key)) continue;
      lines.splice(2 + (o.at % (lines.length - 1)), 0, entryLine(key, o.hook));
    } else if (o.op === 'move' && idx.length) {
      const [line] = lines.splice(idx[o.from % idx.length]!, 1);
      lines.splice(2 + (o.to % (lines.length - 1)), 0, line!);
    } else if (o.op === 'prose') lines.splice(2 + (o.at % (lines.length - 1)), 0, o.text);
    else if (o.op === 'duplicate' && idx.length) {
      const key = keyOf(lines[idx[o.at % idx.length]!]!)!;
      lines.splice(2 + (o.to % (lines.length - 1)), 0, entryLine(key, o.hook, '*'));
    } else if (o.op === 'repeat' && idx.length) {
      // The same entry line, word for word, a second time.
      lines.splice(2 + (o.to % (lines.length - 1)), 0, lines[idx[o.at % idx.length]!]!);
    }
  }
  return lines;
}

type Style = { crlf: boolean; bom: boolean; finalNewline: boolean };
const styledArb: fc.Arbitrary<Style> = fc.oneof({ weight: 4, arbitrary: fc.constant({ crlf: false, bom: false, finalNewline: true }) }, { weight: 1, arbitrary: fc.record({ crlf: fc.boolean(), bom: fc.boolean(), finalNewline: fc.boolean() }) });

function text(lines: string[], s: Style = { crlf: false, bom: false, finalNewline: true }): string {
  const eol = s.crlf ? '\r\n' : '\n';
  return (s.bom ? '\uFEFF' : '') + lines.join(eol) + (s.finalNewline && lines.length ? eol : '');
}

/** Identity (key, and #n for the n-th repeat of a key) -> entry line text. */
function entryMap(t: string): Map<string, string> {
  const m = new Map<string, string>();
  const seen = new Map<string, number>();
  for (const l of parseIndex(t).lines) {
    if (!l.entry) continue;
    const id = entryIdentity(l.entry);
    const n = seen.get(id) ?? 0;
    seen.set(id, n + 1);
    m.set(n === 0 ? id : `${id}\u0000${n}`, l.text);
  }
  return m;
}

const hasDuplicates = (...texts: string[]) => texts.some((t) => [...entryMap(t).keys()].some((k) => k.includes('\u0000')));

function entryTexts(t: string): string[] {
  return parseIndex(t)
    .lines.filter((l) => l.entry)
    .map((l) => l.text)
    .sort();
}

const scenario = fc.record({
  base: baseArb,
  opsA: fc.array(opArb, { maxLength: 6 }),
  opsB: fc.array(opArb, { maxLength: 6 }),
  styleA: styledArb,
  styleB: styledArb,
});

function build(s: { base: Doc; opsA: Op[]; opsB: Op[]; styleA: Style; styleB: Style }) {
  return { O: text(s.base.lines), A: text(apply(s.base, s.opsA), s.styleA), B: text(apply(s.base, s.opsB), s.styleB) };
}

const RUNS = { numRuns: Number(process.env.MEMLINT_PROP_RUNS ?? 400) };

describe('index merge properties', () => {
  it('loses nothing unless deleted on one side and unchanged on the other', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const { O, A, B } = build(s);
        const r = mergeIndex(O, A, B);
        const [o, a, b] = [entryMap(O), entryMap(A), entryMap(B)];
        const resultLines = parseIndex(r.text).lines;
        const resultTexts = new Set(resultLines.map((l) => l.text));
        // Per key, the result holds one line per distinct text of the identities that survive
        // (the same text twice is one entry), two for a conflict.
        const expected = new Map<string, number>();
        const keptTexts = new Set<string>();
        const identity = A === B || B === O || A === O;
        for (const id of new Set([...o.keys(), ...a.keys(), ...b.keys()])) {
          const key = id.split('\u0000')[0]!;
          const [ot, at, bt] = [o.get(id), a.get(id), b.get(id)];
          const gone = (at === undefined && bt === undefined) || (at === undefined && bt === ot) || (bt === undefined && at === ot);
          const conflict = at !== undefined && bt !== undefined && at !== bt && at !== ot && bt !== ot;
          const kept = at !== undefined && (at === bt || bt === ot || bt === undefined) ? at : bt;
          const repeat = !identity && !gone && !conflict && keptTexts.has(`${key}\u0000${kept}`);
          if (!gone && !conflict) keptTexts.add(`${key}\u0000${kept}`);
          expected.set(key, (expected.get(key) ?? 0) + (gone || repeat ? 0 : conflict ? 2 : 1));
          // Every change either side made to a surviving entry is in the result.
          if (!gone) for (const t of [at, bt]) if (t !== undefined && t !== ot) expect(resultTexts.has(t)).toBe(true);
        }
        const actual = new Map<string, number>();
        for (const l of resultLines) if (l.entry) actual.set(entryIdentity(l.entry), (actual.get(entryIdentity(l.entry)) ?? 0) + 1);
        for (const [key, n] of expected) expect([key, actual.get(key) ?? 0]).toEqual([key, n]);
        for (const key of actual.keys()) expect(expected.has(key)).toBe(true);
      }),
      RUNS,
    );
  });

  it('merge(O,A,O) = A, merge(O,O,B) = B and merge(O,A,A) = A byte for byte', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const { O, A, B } = build(s);
        expect(mergeIndex(O, A, O).text).toBe(A);
        expect(mergeIndex(O, O, B).text).toBe(B);
        expect(mergeIndex(O, A, A).text).toBe(A);
        expect(mergeIndex(O, A, O).conflicts).toEqual([]);
      }),
      RUNS,
    );
  });

  it('collapses an entry held twice with the same text to one in a merged result', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const { O, A, B } = build(s);
        fc.pre(A !== B && A !== O && B !== O);
        const r = mergeIndex(O, A, B);
        fc.pre(r.conflicts.length === 0);
        const texts = parseIndex(r.text).lines.filter((l) => l.entry).map((l) => `${entryIdentity(l.entry!)}\u0000${l.text}`);
        expect(texts.length).toBe(new Set(texts).size);
      }),
      RUNS,
    );
  });

  it('gives the same entry set whichever side is ours', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const { O, A, B } = build(s);
        const ab = mergeIndex(O, A, B);
        const ba = mergeIndex(O, B, A);
        expect(entryTexts(ba.text)).toEqual(entryTexts(ab.text));
        expect(ba.conflicts.length).toBe(ab.conflicts.length);
      }),
      RUNS,
    );
  });

  it('writes an output that re-parses, each entry once when clean, in ours conventions', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const { O, A, B } = build(s);
        const r = mergeIndex(O, A, B);
        const parsed = parseIndex(r.text);
        expect(serializeIndex(parsed)).toBe(r.text);
        if (r.conflicts.length === 0 && !hasDuplicates(O, A, B)) {
          const keys = parsed.lines.filter((l) => l.entry).map((l) => entryIdentity(l.entry!));
          expect(new Set(keys).size).toBe(keys.length);
          expect(r.text).not.toMatch(/^<{7}/m);
        }
        if (A !== O && B !== O && A !== B && r.text !== '') {
          expect(r.text.startsWith('\uFEFF')).toBe(s.styleA.bom);
          if (s.styleA.crlf) expect(r.text.replace(/\r\n/g, '')).not.toMatch(/\n/);
          else expect(r.text).not.toMatch(/\r/);
        }
      }),
      RUNS,
    );
  });
});

describe('topic merge properties', () => {
  // A few instants, each writable several ways: the same instant must merge the same both ways.
  const INSTANTS = ['2026-11-29T10:00:05Z', '2026-11-29T10:00:06Z', '2026-11-30T08:00:00Z'];
  const forms = (iso: string) => [iso, iso.replace('Z', '.000Z'), iso.replace('Z', '+00:00'), `"${iso}"`, `'${iso.replace('Z', '.000Z')}'`];
  const stamp = fc.record({ i: fc.nat({ max: INSTANTS.length - 1 }), f: fc.nat({ max: 4 }) }).map(({ i, f }) => forms(INSTANTS[i]!)[f]!);
  const doc = (modified: string, body: string) => `---\nname: deploys\ndescription: Deploys\ntype: project\nmodified: ${modified}\n---\n${body}\n`;

  it('modified takes the later instant, the same result whichever side is ours', () => {
    fc.assert(
      fc.property(stamp, stamp, fc.constantFrom('Tuesdays.', 'Tuesdays only.'), fc.constantFrom('Tuesdays.', 'Never Fridays.'), (a, b, bodyA, bodyB) => {
        const O = doc('2026-01-01T00:00:00Z', 'Tuesdays.');
        const ab = mergeTopic(O, doc(a, bodyA), doc(b, bodyB));
        const ba = mergeTopic(O, doc(b, bodyB), doc(a, bodyA));
        const modified = (t: string) => /^modified: (.*)$/m.exec(t)?.[1];
        expect(modified(ab.text)).toBe(modified(ba.text));
        expect(ab.conflicts.filter((c) => c.label === 'modified')).toEqual([]);
        const instant = (v: string) => Date.parse(v.replace(/^["']|["']$/g, ''));
        expect(instant(modified(ab.text)!)).toBe(Math.max(instant(a), instant(b)));
      }),
      RUNS,
    );
  });
});

describe('daily log merge properties', () => {
  const entries = fc.uniqueArray(fc.integer({ min: 0, max: 40 }), { maxLength: 8 }).map((ns) => ns.map((n) => `- ${String(n).padStart(2, '0')}:00 note ${n}`));
  it('keeps ours and every entry theirs appended, each identical entry once, never a conflict', () => {
    fc.assert(
      fc.property(entries, entries, entries, (base, addA, addB) => {
        const moreA = addA.filter((l) => !base.includes(l));
        const moreB = addB.filter((l) => !base.includes(l));
        const head = ['# 2026-11-29', ''];
        const O = text([...head, ...base]);
        const A = text([...head, ...base, ...moreA]);
        const B = text([...head, ...base, ...moreB]);
        const r = mergeLog(O, A, B);
        expect(r.conflicts).toEqual([]);
        const lines = r.text.split('\n');
        for (const l of new Set([...base, ...moreA, ...moreB])) expect(lines.filter((x) => x === l).length).toBe(1);
        expect(r.text.startsWith(A)).toBe(true);
      }),
      RUNS,
    );
  });

  // A user trial (December 2026): theirs appended "- deployed" again, the base holding one, and the
  // entry was dropped when theirs was theirs, kept when it was ours.
  it('an entry appended again (the base or the other side holds it too) is kept: as often as the side with more has it, whichever side is ours', () => {
    const repeated = fc.array(fc.constantFrom('- deployed', '- rolled back', '- note A', '- note B'), { maxLength: 6 });
    const count = (t: string) => {
      const m = new Map<string, number>();
      for (const l of t.split('\n')) if (l.startsWith('- ')) m.set(l, (m.get(l) ?? 0) + 1);
      return m;
    };
    fc.assert(
      fc.property(repeated, repeated, repeated, (base, addA, addB) => {
        const head = ['# 2026-11-29', ''];
        const O = text([...head, ...base]);
        const A = text([...head, ...base, ...addA]);
        const B = text([...head, ...base, ...addB]);
        const ab = mergeLog(O, A, B);
        const ba = mergeLog(O, B, A);
        expect(ab.conflicts).toEqual([]);
        expect(ab.text.startsWith(A)).toBe(true);
        const [inA, inB, inAB, inBA] = [A, B, ab.text, ba.text].map(count);
        for (const l of new Set([...inA.keys(), ...inB.keys()])) {
          expect(inAB!.get(l), l).toBe(Math.max(inA!.get(l) ?? 0, inB!.get(l) ?? 0));
          expect(inBA!.get(l), l).toBe(inAB!.get(l));
        }
      }),
      RUNS,
    );
  });
});

describe('the fast paths agree with the shared parser', () => {
  const lineArb = fc.constantFrom(
    '- [A](a.md) — hook',
    '* [B](b.md): hook',
    '- [A](./a.md) — other hook',
    '# Heading',
    '',
    'prose line',
    '```',
    '~~~md',
    '<!-- comment',
    'still comment -->',
    '---',
    '- plain list item',
    '用中文回答',
  );
  const textArb = fc
    .record({ lines: fc.array(lineArb, { maxLength: 12 }), eols: fc.array(fc.constantFrom('\n', '\r\n', '\r'), { minLength: 12, maxLength: 12 }), final: fc.boolean(), bom: fc.boolean() })
    .map(({ lines, eols, final, bom }) => (bom ? '\uFEFF' : '') + lines.map((l, i) => l + (i < lines.length - 1 || final ? eols[i] : '')).join(''));

  // The definition of a line, one character at a time: what the native split must agree with.
  function referenceLines(t: string): Array<{ text: string; eol: string; offset: number }> {
    const out: Array<{ text: string; eol: string; offset: number }> = [];
    let start = 0;
    while (start < t.length) {
      let i = start;
      while (i < t.length && t[i] !== '\n' && t[i] !== '\r') i++;
      const eol = i >= t.length ? '' : t[i] === '\r' && t[i + 1] === '\n' ? '\r\n' : t[i]!;
      out.push({ text: t.slice(start, i), eol, offset: start });
      start = i + eol.length;
    }
    return out;
  }

  it('splitLines splits as the character-by-character definition does', () => {
    fc.assert(
      fc.property(fc.oneof(textArb, fc.string({ unit: fc.constantFrom('a', 'b', ' ', '\n', '\r') })), (t) => {
        expect(splitLines(t)).toEqual(referenceLines(t));
      }),
      RUNS,
    );
  });

  it('sideLines gives each side the lines and entries parseIndex gives it', () => {
    fc.assert(
      fc.property(textArb, textArb, textArb, (o, a, b) => {
        const sides = sideLines([o, a, b]);
        [o, a, b].forEach((t, i) => {
          const expected = parseIndex(t).lines.map((l) => ({ text: l.text, eol: l.eol, key: l.entry?.key }));
          expect(sides[i]!.map((l) => ({ text: l.text, eol: l.eol, key: l.entry?.key }))).toEqual(expected);
        });
      }),
      RUNS,
    );
  });
});
