// tellsEventBeyondTold: tellsEvent for a text TOLD finds no verb in, looking for EVENT_VERB's other
// words only. The two must agree on every such text, whatever the case, apostrophes and "since".
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TOLD_VERB, hasVerb, tellsEvent, tellsEventBeyondTold } from '../../src/content/dates.js';

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
