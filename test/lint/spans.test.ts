// A topic whose every line holds a relative date (contract §9: at most 2 s of CPU per MB). The
// dates already found were a list scanned whole on every match: quadratic. src/content/spans.ts
// answers each lookup by looking at the phrase's own characters only, so the work per match is
// bounded by its length; these tests hold its answers to the list's, and the finder's answers on
// a 1 MB topic to the same finder's answers line by line.
import fc from 'fast-check';
import * as chrono from 'chrono-node';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { Spans } from '../../src/content/spans.js';
import { findRelativeDates } from '../../src/content/dates.js';
import { lintMemdirs, resolveRules } from '../../src/lint/engine.js';
import { allRules } from '../../src/lint/rules/all.js';
import { tempDir } from '../helpers/repo.js';

const DAY = new Date(2026, 10, 29, 12);

describe('Spans', () => {
  it('answers as a list of the ranges added, for any ranges', () => {
    const range = fc.tuple(fc.nat(200), fc.integer({ min: 1, max: 30 })).map(([s, n]) => [s, s + n] as const);
    fc.assert(
      fc.property(fc.array(fc.tuple(range, fc.boolean()), { maxLength: 60 }), (steps) => {
        const spans = new Spans(240);
        const list: Array<readonly [number, number]> = [];
        for (const [[s, e], add] of steps) {
          const naive = list.some(([a, b]) => s < b && a < e);
          expect(spans.overlaps(s, e)).toBe(naive);
          if (add && !naive) {
            spans.add(s, e);
            list.push([s, e]);
          }
        }
      }),
    );
  });
});

describe('findRelativeDates on a topic whose every line holds relative dates', () => {
  it('finds in 1 MB what it finds line by line', () => {
    const phrases = ['yesterday', 'tomorrow', 'last week', 'next Monday', 'two days ago', 'in three weeks', 'last Friday', '下周四', '明天'];
    const lines: string[] = [];
    let size = 0;
    for (let i = 0; size < 1024 * 1024; i++) {
      const line = `- Item ${i}: shipped ${phrases[i % phrases.length]} and reviewed ${phrases[(i + 4) % phrases.length]}.`;
      lines.push(line);
      size += line.length + 1;
    }
    const text = lines.join('\n') + '\n';
    const found = findRelativeDates(text, DAY);
    let offset = 0;
    const byLine = lines.flatMap((line) => {
      const here = findRelativeDates(line, DAY).map((d) => ({ ...d, start: d.start + offset, end: d.end + offset }));
      offset += line.length + 1;
      return here;
    });
    expect(found.length).toBeGreaterThan(lines.length);
    expect(found).toEqual(byLine);
  }, 120_000);
});

// The work counted, never timed: chrono reads, through chrono's own parse (the one way in).
describe('the work of absolute-dates grows with the distinct phrases, not with the lines', () => {
  const topicOf = (lines: number) => {
    const body: string[] = [];
    for (let i = 0; i < lines; i++) body.push(`- Item ${i}: shipped yesterday, reviewed it tomorrow and planned next Monday.`);
    return `---\nname: Dated\ndescription: dated\ntype: project\n---\n${body.join('\n')}\n`;
  };
  const rules = resolveRules(Object.fromEntries(allRules.map((r) => [r.id, r.id === 'absolute-dates' ? 'error' : 'off'])));
  async function chronoReads(lines: number, fix: boolean): Promise<{ reads: number; findings: number }> {
    const dir = tempDir('memlint-dated-work-');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'MEMORY.md'), '- [Dated](dated.md) — dated\n');
    writeFileSync(join(dir, 'dated.md'), topicOf(lines));
    const parse = vi.spyOn(chrono.Chrono.prototype, 'parse');
    try {
      const run = await lintMemdirs({ memdirs: [{ dir, repoRoot: null, reason: 'path' }], env: process.env, rules, fix, write: false, today: new Date(2026, 10, 29, 12) });
      return { reads: parse.mock.calls.length, findings: run.results.reduce((n, r) => n + r.messages.length, 0) };
    } finally {
      parse.mockRestore();
    }
  }

  it('reads each phrase with chrono once per text and day, in lint and in --fix', async () => {
    for (const fix of [false, true]) {
      const small = await chronoReads(50, fix);
      const large = await chronoReads(2000, fix);
      if (!fix) expect(large.findings).toBe(3 * 2000);
      // Three phrases counted from one day: the same reads for 2,000 lines as for 50 (it was two
      // reads per phrase and line: the finder ran once from today, then again from each line's day).
      expect(large.reads).toBe(small.reads);
      expect(large.reads).toBeLessThanOrEqual(fix ? 12 : 3);
    }
  }, 120_000);

});

// One long line: the checks around each phrase read the words before it. They read the whole line
// up to the phrase, so a 200 KB line of dates took minutes. Counted here: the characters handed to
// regular expressions that may scan all of their input (not those anchored at the start, and not
// the finder's own global scans, which move on through the text).
describe('the work of absolute-dates on one long line grows with its length', () => {
  const lineOf = (phrases: number) =>
    Array.from({ length: phrases }, (_, i) => ['we ship tomorrow', 'the review is on Friday', 'a call yesterday'][i % 3]).join(', ');
  function scanned(text: string): { chars: number; found: number } {
    let chars = 0;
    const count = function (this: RegExp, input: unknown) {
      if (!this.global && !this.sticky && !this.source.startsWith('^')) chars += String(input).length;
    };
    const test = RegExp.prototype.test;
    const exec = RegExp.prototype.exec;
    const search = String.prototype.search;
    RegExp.prototype.test = function (this: RegExp, input: string) {
      count.call(this, input);
      return test.call(this, input);
    };
    RegExp.prototype.exec = function (this: RegExp, input: string) {
      count.call(this, input);
      return exec.call(this, input);
    };
    String.prototype.search = function (this: string, re: RegExp) {
      if (re instanceof RegExp) count.call(re, this);
      return search.call(this, re);
    };
    try {
      const found = findRelativeDates(text, DAY).length;
      return { chars, found };
    } finally {
      RegExp.prototype.test = test;
      RegExp.prototype.exec = exec;
      String.prototype.search = search;
    }
  }

  it('reads a bounded stretch around each phrase, not the line before it', () => {
    const short = scanned(lineOf(300));
    const long = scanned(lineOf(3000));
    expect(long.found).toBe(10 * short.found);
    // Ten times the phrases, about ten times the reading (it was a hundred times: 3,000 phrases,
    // each reading the line up to itself).
    expect(long.chars / short.chars).toBeLessThan(15);
  });
});

// The checks around each phrase work per line (the quotation marks, brackets and sentence ends of
// the line, found once). Counted: the regular expressions built while finding (each quotation mark
// was looked for with a RegExp built for it, on every line that held a phrase).
describe('the work of absolute-dates per line', () => {
  function built(lines: number): { regexps: number; found: number } {
    // Past, future and present clauses, so that the checks of a sentence's verbs run on each line.
    const text = Array.from({ length: lines }, (_, i) => `- Item ${i}: "shipped" yesterday, reviewed it [tomorrow](t.md) and planned next Monday. The endpoint is reachable today; we deployed it this week.`).join('\n');
    const Original = globalThis.RegExp;
    let regexps = 0;
    globalThis.RegExp = new Proxy(Original, {
      construct(target, args: [string | RegExp, string?]) {
        regexps++;
        return new target(...args);
      },
    });
    try {
      const found = findRelativeDates(text, DAY).length;
      return { regexps, found };
    } finally {
      globalThis.RegExp = Original;
    }
  }

  it('builds no regular expression per line', () => {
    built(10); // patterns made once per process
    const small = built(100);
    const large = built(1000);
    expect(large.found).toBe(10 * small.found);
    expect(large.regexps).toBe(small.regexps);
  });
});

// What a phrase's sentence and paragraph say is read once per sentence and once per line, not once
// per phrase: a line of four phrases reads its paragraph's labels as often as a line of one did,
// and no phrase has its patterns cloned (matchAll makes a new RegExp on each call; it was called
// for every phrase, up to four times).
describe('the work of absolute-dates per phrase', () => {
  const textOf = (lines: number, perLine: number) =>
    Array.from({ length: lines }, (_, i) => {
      const phrases = ['we shipped it yesterday', 'we review it tomorrow', 'it was planned for next Monday', 'it landed last week'].slice(0, perLine);
      return `- Item ${i}: ${phrases.join(', and ')}; the endpoint is reachable today.`;
    }).join('\n');
  function counted(text: string): { labelReads: number; clones: number; found: number } {
    let labelReads = 0;
    let clones = 0;
    const test = RegExp.prototype.test;
    const matchAll = RegExp.prototype[Symbol.matchAll];
    RegExp.prototype.test = function (this: RegExp, input: string) {
      if (this.source.includes('why|reason|rationale')) labelReads++;
      return test.call(this, input);
    };
    RegExp.prototype[Symbol.matchAll] = function (this: RegExp, input: string) {
      clones++;
      return matchAll.call(this, input);
    };
    try {
      const found = findRelativeDates(text, DAY).length;
      return { labelReads, clones, found };
    } finally {
      RegExp.prototype.test = test;
      RegExp.prototype[Symbol.matchAll] = matchAll;
    }
  }

  it('reads the labels above a phrase once per line, and clones no pattern per phrase', () => {
    const one = counted(textOf(300, 1));
    const four = counted(textOf(300, 4));
    expect(four.found).toBeGreaterThanOrEqual(4 * 300);
    expect(one.found).toBeGreaterThanOrEqual(300);
    expect(four.labelReads).toBe(one.labelReads);
    const more = counted(textOf(3000, 4));
    expect(more.found).toBe(10 * four.found);
    // matchAll runs a fixed number of times per text (week definitions, headings), never per line or phrase.
    expect(more.clones).toBe(four.clones);
  });
});

// Every message is masked against secrets before it is printed (docs/security.md). A dated topic's
// thousands of findings hold a few distinct texts: each distinct text is scanned once.
describe('masking the messages of a dated topic', () => {
  const rules = resolveRules(Object.fromEntries(allRules.map((r) => [r.id, r.id === 'absolute-dates' ? 'error' : 'off'])));
  async function scans(lines: number): Promise<{ scans: number; findings: number }> {
    const dir = tempDir('memlint-dated-mask-');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'MEMORY.md'), '- [Dated](dated.md) — dated\n');
    const body = Array.from({ length: lines }, (_, i) => `- Item ${i}: shipped yesterday, reviewed it tomorrow and planned next Monday.`).join('\n');
    writeFileSync(join(dir, 'dated.md'), `---\nname: Dated\ndescription: dated\ntype: project\n---\n${body}\n`);
    let scans = 0;
    const test = RegExp.prototype.test;
    RegExp.prototype.test = function (this: RegExp, input: string) {
      if (this.source.startsWith('secret|Secret|SECRET')) scans++;
      return test.call(this, input);
    };
    try {
      const run = await lintMemdirs({ memdirs: [{ dir, repoRoot: null, reason: 'path' }], env: process.env, rules, today: new Date(2026, 10, 29, 12) });
      return { scans, findings: run.results.reduce((n, r) => n + r.messages.length, 0) };
    } finally {
      RegExp.prototype.test = test;
    }
  }

  it('scans each distinct message once, whatever the number of findings', async () => {
    const small = await scans(50);
    const large = await scans(2000);
    expect(large.findings).toBe(3 * 2000);
    expect(small.scans).toBeGreaterThan(0);
    expect(large.scans).toBe(small.scans);
  }, 120_000);
});
