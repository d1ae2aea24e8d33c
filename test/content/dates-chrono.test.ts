// The cut-down chrono readers (CHRONO_READERS in src/content/dates.ts) read every phrase the 'chrono'
// patterns can find exactly as chrono's full casual configuration does, on any day, forward or not.
import * as chrono from 'chrono-node';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHRONO_READERS, chronoFor } from '../../src/content/dates.js';
import { EN_PATTERNS } from '../../src/content/date-patterns.js';
import { ROOT } from '../helpers/repo.js';

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const NUMBERS = ['1', '2', '12', '100', 'a', 'an', 'one', 'three', 'twelve', 'a couple of', 'a few', 'several'];
const UNITS = ['day', 'days', 'week', 'weeks', 'month', 'months', 'year', 'years'];

/** Every phrase shape the 'chrono' patterns allow, with the case and spacing variants they accept. */
const PHRASES = [
  'the day after tomorrow', 'the day before yesterday', 'The Day After Tomorrow', 'the  day\nbefore yesterday',
  'this morning', 'this afternoon', 'this evening', 'last night', 'This Morning', 'last\tnight',
  'today', 'tonight', 'tomorrow', 'yesterday', 'Tomorrow', 'TODAY',
  ...['this', 'next', 'last', 'coming', 'past'].flatMap((m) => WEEKDAYS.map((w) => `${m} ${w}`)),
  'Next Friday', 'next\tfriday', 'LAST MONDAY',
  ...NUMBERS.flatMap((n) => UNITS.flatMap((u) => [`${n} ${u} ago`, `${n} ${u} from now`, `${n} ${u} from today`, `${n}\t${u} ago`])),
  ...NUMBERS.flatMap((n) => UNITS.filter((u) => !u.startsWith('year')).map((u) => `in ${n} ${u}`)),
  'In 3 Weeks',
];

// Noon on each day of one week, and on the days where calendars go wrong.
const DAYS = [
  ...Array.from({ length: 7 }, (_, i) => new Date(2026, 3, 20 + i, 12)),
  new Date(2024, 1, 29, 12), new Date(2025, 0, 31, 12), new Date(2026, 11, 31, 12),
];

/** What dates.ts takes from a parse: the first result when it starts the phrase, as text and day. */
const reading = (results: chrono.ParsedResult[]) => {
  const r = results[0];
  return r && r.index === 0 ? `${r.text} → ${r.start.date().toISOString()}` : null;
};

describe('chrono readers', () => {
  it('every phrase is one the patterns find, and each gets a cut-down reader', () => {
    for (const phrase of PHRASES) {
      const found = EN_PATTERNS.filter((p) => p.kind === 'chrono').some(({ re }) => {
        re.lastIndex = 0;
        const m = re.exec(phrase);
        return m !== null && m.index === 0 && m[0] === phrase;
      });
      expect(found, phrase).toBe(true);
      expect(chronoFor(phrase), phrase).not.toBe(chrono.en.casual);
    }
  });

  it('read each phrase as the full casual configuration does, on every day, forward or not', () => {
    let compared = 0;
    for (const phrase of PHRASES) {
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
    expect(compared).toBeGreaterThan(10_000);
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
