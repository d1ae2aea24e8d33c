// tellsEventBeyondTold: tellsEvent for a text TOLD finds no verb in, looking for EVENT_VERB's other
// words only. The two must agree on every such text, whatever the case, apostrophes and "since".
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HINTED, TOLD_VERB, hasVerb, tellsEvent, tellsEventBeyondTold } from '../../src/content/dates.js';

const EVENT_WORDS = ('was were did didn\'t had will won\'t shall going gonna plan plans planned scheduled due deadline broke went came found got made ran saw told said took left sent wrote shipped deployed merged landed fixed released failed started finished happened asked decided agreed announced reported noticed discovered learned added removed changed moved reverted rolled turned closed opened migrated upgraded updated completed ' +
  'start starts begin begins end ends ship ships land lands launch launches expire expires freeze freezes until since ended landing shipping').split(' ');
const OTHER = ['to', 'it', 'is', 'are', 'the', 'we', 'they', "we'll", "it'll", "'ll", '’ll', 'ago', 'as', 'of', 'so', 'far', 'by', 'after', 'before', 'tomorrow', 'meeting', 'demo', 'can', '\u0000', ',', '.', '-', 'x', 'ran_', '_went'];

const word = fc.oneof(
  fc.constantFrom(...EVENT_WORDS).chain((w) => fc.constantFrom(w, w.toUpperCase(), w[0]!.toUpperCase() + w.slice(1), `${w}s`, `re${w}`)),
  fc.constantFrom(...OTHER),
);

describe('tellsEventBeyondTold', () => {
  it('agrees with tellsEvent on every text TOLD finds no verb in (property)', () => {
    let compared = 0;
    fc.assert(
      fc.property(fc.array(word, { maxLength: 10 }), fc.constantFrom(' ', '  ', '\t', ' '), (ws, sep) => {
        const text = ws.join(sep);
        if (hasVerb(TOLD_VERB, text)) return;
        compared++;
        expect(tellsEventBeyondTold(text), JSON.stringify(text)).toBe(tellsEvent(text));
      }),
      { numRuns: 20_000, seed: 30 },
    );
    expect(compared).toBeGreaterThan(2_000);
  });

  it.each([
    ['Ships Monthly is a name', 'Ships Monthly is a name', false],
    ['the window ends', 'the window ends', true],
    ['since it is cached', 'since it is cached', false],
    ['since the reset', 'since the reset', true],
    ['the LAUNCH', 'the LAUNCH', true],
  ])('reads %s as tellsEvent does', (_, text, want) => {
    expect(hasVerb(TOLD_VERB, text)).toBe(false);
    expect(tellsEventBeyondTold(text)).toBe(want);
    expect(tellsEvent(text)).toBe(want);
  });
});

describe('the hints run before the long patterns', () => {
  // Each pattern's words and their pieces, in every case, with the letters Unicode folds to ASCII
  // ones (ſ to s, K to k), and the mark a phrase leaves in its clause.
  const WORDS = ('usually always typically normally generally often sometimes frequently routinely habitually tend tends to whenever every time each by default as a rule would ' +
    'meeting meetings call calls standup standups review reviews demo demos sync interview can could cannot can\'t can’t s \'s ’s 通常 一般 总是 往往 经常 每次 x').split(' ');
  const variant = (w: string) => fc.constantFrom(w, w.toUpperCase(), w[0]!.toUpperCase() + w.slice(1), w.replace(/s/g, 'ſ'), w.replace(/k/g, 'K'), `${w}x`, `x${w}`);
  const text = fc.array(fc.oneof(fc.constantFrom(...WORDS).chain(variant), fc.constant('\u0000')), { maxLength: 8 }).chain((ws) =>
    fc.array(fc.constantFrom(' ', '  ', '\t', '', '-'), { minLength: ws.length, maxLength: ws.length }).map((gaps) => ws.map((w, k) => w + gaps[k]).join('')),
  );

  it('each hint finds a word wherever its pattern matches (property)', () => {
    const matched = HINTED.map(() => 0);
    fc.assert(
      fc.property(text, (t) => {
        HINTED.forEach(([hint, pattern], k) => {
          if (!pattern.test(t)) return;
          matched[k]!++;
          expect(hint.test(t), `${pattern.source.slice(0, 30)}: ${JSON.stringify(t)}`).toBe(true);
        });
      }),
      { numRuns: 30_000, seed: 31 },
    );
    for (const n of matched) expect(n).toBeGreaterThan(500);
  });
});
