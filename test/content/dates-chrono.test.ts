// The English relative dates (src/content/dates.ts): englishReading gives every phrase the
// 'chrono' patterns can find the day chrono-node's full casual configuration gives it, with the
// direction the finder reads it in, on any day ("last Friday" and "next Thursday" aside: the
// finder's own reading); the cut-down chrono readers read the phrases left to chrono exactly as
// the full configuration does.
import * as chrono from 'chrono-node';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHRONO_READERS, chronoFor, englishReading, findRelativeDates } from '../../src/content/dates.js';
import { EN_PATTERNS } from '../../src/content/date-patterns.js';
import { ROOT } from '../helpers/repo.js';

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const NUMBERS = ['0', '2', '12', '100', '999', '007', 'a', 'an', 'three', 'twelve', 'a couple of', 'a few', 'Several', 'a\tcouple\nof'];
const UNITS = ['day', 'days', 'week', 'weeks', 'month', 'months', 'year', 'years', 'Days'];

/** The phrases chrono reads (its cut-down reader), with case and spacing variants. */
const CHRONO_PHRASES = ['this morning', 'this afternoon', 'this evening', 'last night', 'This Morning', 'last\tnight', 'this\nevening'];

/** Every other phrase shape the 'chrono' patterns allow, with the case and spacing variants they accept. */
const PHRASES = [
  'the day after tomorrow', 'the day before yesterday', 'The Day After Tomorrow', 'the  day\nbefore yesterday',
  'today', 'tonight', 'tomorrow', 'yesterday', 'Tomorrow', 'TODAY',
  ...['this', 'next', 'last', 'coming', 'past'].flatMap((m) => WEEKDAYS.map((w) => `${m} ${w}`)),
  'Next Friday', 'next\tfriday', 'LAST MONDAY', 'This  Sunday',
  ...NUMBERS.flatMap((n) => UNITS.flatMap((u) => [`${n} ${u} ago`, `${n}\t${u}  ago`, `${n} ${u} from now`, `${n} ${u}  From\tToday`])),
  ...NUMBERS.flatMap((n) => UNITS.filter((u) => !/^years?$/u.test(u)).flatMap((u) => [`in ${n} ${u}`, `In\t${n}  ${u}`])),
];

// Noon on each day of a week that ends a month, and on the days where calendars go wrong (leap
// day, month and year ends, the days clocks change in Europe).
const DAYS = [
  ...Array.from({ length: 7 }, (_, i) => new Date(2026, 3, 27 + i, 12)),
  new Date(2024, 1, 29, 12), new Date(2025, 0, 31, 12), new Date(2026, 11, 31, 12), new Date(2026, 2, 29, 12), new Date(2026, 9, 25, 12),
];

/** What dates.ts takes from a parse: the first result when it starts the phrase, as text and day. */
const reading = (results: chrono.ParsedResult[]) => {
  const r = results[0];
  return r && r.index === 0 ? `${r.text} → ${r.start.date().toISOString()}` : null;
};

const ymd = (d: Date) => ({ y: d.getFullYear(), m: d.getMonth() + 1, d: d.getDate() });
const day = (d: Date) => `${d.getFullYear()}-${d.getMonth() + 1}-${d.getDate()}`;

/** The finder's direction for a phrase: forward for next, coming, this and "from now"; "this morning" is the day's own. */
const forwardFor = (phrase: string) => /^(?:next|coming|this)\b|from[ \t]+(?:now|today)$/iu.test(phrase) && !/^this\s+(?:morning|afternoon|evening)$/iu.test(phrase);

/** The day a phrase stands for as the finder read it with chrono: its full configuration, then "last X" the latest X before the day and "next X" the first after it. */
function expected(phrase: string, instant: Date): string | null {
  const r = chrono.en.casual.parse(phrase, { instant }, { forwardDate: forwardFor(phrase) })[0];
  if (!r || r.index !== 0) return null;
  const lower = phrase.toLowerCase();
  const wd = WEEKDAYS.findIndex((w) => lower.endsWith(w));
  if (wd >= 0 && /^(?:last|past|next|coming)\s/u.test(lower)) {
    const step = /^(?:last|past)/u.test(lower) ? -1 : 1;
    for (let i = 1; ; i++) {
      const d = new Date(instant.getFullYear(), instant.getMonth(), instant.getDate() + step * i, 12);
      if ((d.getDay() + 6) % 7 === wd) return day(d);
    }
  }
  return day(r.start.date());
}

describe('English relative dates', () => {
  it('"this morning", "this afternoon" and "this evening" are the day counted from, whatever the hour', () => {
    for (const hour of [0, 9, 12, 23]) {
      const hits = findRelativeDates('We rolled back this morning, paged again this afternoon and this evening.\n', new Date(2026, 3, 20, hour));
      expect(hits.map((h) => h.replacement), String(hour)).toEqual(['this morning (2026-04-20)', 'this afternoon (2026-04-20)', 'this evening (2026-04-20)']);
    }
  });

  it('every phrase is one the patterns find', () => {
    for (const phrase of [...PHRASES, ...CHRONO_PHRASES]) {
      const found = EN_PATTERNS.filter((p) => p.kind === 'chrono').some(({ re }) => {
        re.lastIndex = 0;
        const m = re.exec(phrase);
        return m !== null && m.index === 0 && m[0] === phrase;
      });
      expect(found, JSON.stringify(phrase)).toBe(true);
    }
  });

  it('englishReading gives each phrase the day chrono gives it, on every day', () => {
    let compared = 0;
    for (const phrase of PHRASES) {
      for (const instant of DAYS) {
        const want = expected(phrase, instant);
        const got = englishReading(phrase, ymd(instant));
        expect(got && day(new Date(got.y, got.m - 1, got.d, 12)), `${JSON.stringify(phrase)} on ${instant.toDateString()}`).toBe(want);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(8_000);
  });

  it('leaves the phrases of the cut-down reader to chrono', () => {
    for (const phrase of CHRONO_PHRASES) expect(englishReading(phrase, ymd(DAYS[0]!)), phrase).toBeUndefined();
  });

  it('finds a count without chrono compiling its time-unit patterns', () => {
    // V8 compiles chrono's count patterns on their first use (0.8 G instructions): the finder never runs them.
    const used = new Set<string>();
    const parse = chrono.Chrono.prototype.parse;
    chrono.Chrono.prototype.parse = function (this: chrono.Chrono, ...args: Parameters<typeof parse>) {
      for (const p of this.parsers) used.add(p.constructor.name);
      return parse.apply(this, args);
    };
    try {
      const hits = findRelativeDates('Shipped two days ago, due in three weeks, the day after tomorrow, a few months from now, last night.\n', new Date(2026, 3, 20, 12));
      expect(hits.map((h) => h.replacement)).toEqual(['two days ago (2026-04-18)', 'in three weeks (2026-05-11)', 'the day after tomorrow (2026-04-22)', 'a few months from now (around 2026-07-20)', 'last night (2026-04-19)']);
    } finally {
      chrono.Chrono.prototype.parse = parse;
    }
    expect([...used].filter((name) => /TimeUnit/u.test(name))).toEqual([]);
    expect(used.size).toBeGreaterThan(0);
  });
});

describe('chrono readers', () => {
  it('each phrase left to chrono gets a cut-down reader', () => {
    for (const phrase of CHRONO_PHRASES) expect(chronoFor(phrase), phrase).not.toBe(chrono.en.casual);
  });

  it('read each phrase as the full casual configuration does, on every day, forward or not', () => {
    let compared = 0;
    for (const phrase of CHRONO_PHRASES) {
      const reader = chronoFor(phrase);
      for (const instant of DAYS) {
        for (const forwardDate of [false, true]) {
          expect(reading(reader.parse(phrase, { instant }, { forwardDate })), `${phrase} on ${instant.toDateString()}${forwardDate ? ', forward' : ''}`).toBe(
            reading(chrono.en.casual.parse(phrase, { instant }, { forwardDate })),
          );
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(100);
  });

  it('name parsers that the casual configuration has, and that the bundle keeps under those names', () => {
    const names = new Set(chrono.en.casual.parsers.map((p) => p.constructor.name));
    const chunks = join(ROOT, 'dist', 'chunks');
    const bundled = readdirSync(chunks).map((f) => readFileSync(join(chunks, f), 'utf8')).find((text) => text.includes('node_modules/chrono-node/'));
    expect(bundled).toBeDefined();
    for (const [, parsers] of CHRONO_READERS) {
      for (const name of parsers) {
        expect(names.has(name), name).toBe(true);
        // esbuild renames a class only when two share a name; a renamed one would not be found.
        expect(bundled, name).toContain(`var ${name} = class`);
      }
    }
  });
});
