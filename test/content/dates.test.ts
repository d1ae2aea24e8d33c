// findRelativeDates: the pure finder the absolute-dates rule and consolidation share.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findRelativeDates, makeDatesAbsolute } from '../../src/content/dates.js';
import { blockModel, spansOf } from '../../src/memdir/blocks.js';

const FRIDAY = new Date(2026, 3, 24, 12); // 2026-04-24, a Friday
// As the rule calls it: frontmatter and code (the block model's) are not prose.
const found = (text: string, anchor: Date = FRIDAY) =>
  findRelativeDates(text, anchor, spansOf(blockModel(text), text, ['frontmatter', 'code'])).map((r) => [r.text, r.absolute, r.absoluteForm]);

describe('findRelativeDates', () => {
  it.each([
    ['We ship tomorrow.', 'tomorrow', '2026-04-25', '2026-04-25'],
    ['It broke yesterday', 'yesterday', '2026-04-23', '2026-04-23'],
    ['Freeze starts next Thursday', 'next Thursday', '2026-04-30', '2026-04-30'],
    ['last Friday we shipped', 'last Friday', '2026-04-17', '2026-04-17'],
    ['finance asked last week', 'last week', '2026-04-13', 'the week of 2026-04-13'],
    ['migrate next month', 'next month', '2026-05-01', '2026-05'],
    ['due by next month', 'next month', '2026-05-01', '2026-05'],
    ['this quarter', 'this quarter', '2026-04-01', '2026-Q2'],
    ['it lapsed last year', 'last year', '2025-01-01', '2025'],
    ['It reached production this year.', 'this year', '2026-01-01', '2026'],
    ['This year we moved to pnpm', 'This year', '2026-01-01', '2026'],
    ["this year's budget", 'this year', '2026-01-01', '2026'],
    ['the end of this month', 'this month', '2026-04-01', '2026-04'],
    ['two weeks ago we moved', 'two weeks ago', '2026-04-10', '2026-04-10'],
    ['a few days ago', 'a few days ago', '2026-04-21', 'around 2026-04-21'],
    ['the paper is due in three weeks', 'in three weeks', '2026-05-15', '2026-05-15'],
    ['deploy by Friday', 'Friday', '2026-04-24', '2026-04-24'],
    ['since Monday it fails', 'Monday', '2026-04-20', '2026-04-20'],
    ['下周四发布', '下周四', '2026-04-30', '2026-04-30'],
    ['明天冻结', '明天', '2026-04-25', '2026-04-25'],
    ['上周出过事故', '上周', '2026-04-13', '2026-04-13 那一周'],
    ['下个月迁移', '下个月', '2026-05-01', '2026-05'],
    ['三天后上线', '三天后', '2026-04-27', '2026-04-27'],
    ['两周后复查', '两周后', '2026-05-08', '2026-05-08'],
    ['去年证书过期', '去年', '2025-01-01', '2025年'],
    ['周四前完成', '周四', '2026-04-30', '2026-04-30'],
    ['webhooks will be enabled in a couple of days', 'in a couple of days', '2026-04-26', 'around 2026-04-26'],
    ['下季度起运费上调', '下季度', '2026-07-01', '2026-Q3'],
    ['前几天的停摆', '前几天', '2026-04-21', '2026-04-21 前后'],
  ])('%s', (text, phrase, absolute, replacement) => {
    expect(found(text)).toEqual([[phrase, absolute, replacement]]);
  });

  it.each([
    'Standup every Monday at 10:02',
    'Deploys happen on Mondays and Thursdays',
    'Never deploy on a Friday',
    'No deploys on Friday',
    'Friday deploys are banned',
    'Monday to Friday only',
    'The Monday standup moved',
    'Reviews within 2 days; tokens expire in 30 days',
    'Releases leave on a two-week train; the cut happens Wednesday morning',
    'Now we use pnpm; the second run is cached; May is fine',
    'The last week of March is the quarter close',
    'first three days of the next quarter',
    'Next.js 15 and the next step',
    'Freeze announced Thursday (2026-04-23)',
    'Thursday → 2026-03-05',
    '每周一例会，周一到周五值班，周五不发布',
    '令牌30天后过期',
    '以下周报和下周期',
    '`git log --since=yesterday`',
    'https://example.com/tomorrow',
    '```\nrun it tomorrow\n```',
    '---\nname: due tomorrow\n---\nbody',
    '- 09:14 started; 10:02 done',
    'Convert relative dates ("yesterday", "last week") and “明天” to absolute ones',
    '```ts\nconst x = 1; // due today\nlater\n```\n',
    '```\nan unclosed fence hides tomorrow',
    'A note that would fail review:\n\n    Deploy window: next Friday, after the sync.\n',
    '- steps:\n  ~~~\n  due tomorrow\n  ~~~\n',
    // Recurring schedules, quoted speech and example questions, headings used as names,
    // figurative uses, a weekday whose date stands on the line, the fix's own paired form.
    'Monday: run the digest',
    '| Tuesday | grants and funding |',
    '**Wednesday** — consulting calls only',
    'Monday is the only day for job submissions',
    'When the user asks "what should I do today?", start with the plan',
    'Dana said "we ship tomorrow"',
    '维护说明：“三天后比，输的认罚”是剧中台词',
    "## Today's facts",
    'The ref write is safe today, fragile under concurrent mode',
    'Not a bottleneck today; cost grows with the catalog',
    'none of them pay tomorrow, but all of them teach',
    'Interview Monday 2026-04-06 at 10:30',
    'Ship next Friday (2026-10-09), after the sync',
    'finance asked last week (the week of 2026-04-13)',
    'migrate next month (2026-05)',
    '下周四（2026-04-30）发布',
  ])('not a relative date: %s', (text) => {
    expect(found(text)).toEqual([]);
  });

  it('anchors each phrase at the date the anchor function gives for its offset', () => {
    const text = 'tomorrow\ntomorrow\n';
    const anchor = (offset: number) => (offset < 9 ? new Date(2026, 0, 10, 12) : new Date(2026, 5, 1, 12));
    expect(findRelativeDates(text, anchor).map((r) => [r.start, r.end, r.absolute])).toEqual([
      [0, 8, '2026-01-11'],
      [9, 17, '2026-06-02'],
    ]);
  });

  it('makeDatesAbsolute rewrites in place and keeps the surrounding text', () => {
    expect(makeDatesAbsolute('Ship next Thursday, not tomorrow. 下周四发布。', FRIDAY)).toBe('Ship next Thursday (2026-04-30), not tomorrow (2026-04-25). 下周四（2026-04-30）发布。');
  });

  it('says which phrases name one day for sure: not a bare weekday, not a vague count', () => {
    const exact = (text: string) => findRelativeDates(text, FRIDAY).map((r) => [r.text, r.exact]);
    expect(exact('Ship tomorrow, next Thursday or by Friday; it broke a few days ago; 周四前完成，前几天出事，下周四发布')).toEqual([
      ['tomorrow', true],
      ['next Thursday', true],
      ['Friday', false],
      ['a few days ago', false],
      ['周四', false],
      ['前几天', false],
      ['下周四', true],
    ]);
  });

  const PHRASES = ['tomorrow', 'yesterday', 'next Thursday', 'last week', 'next month', 'two weeks ago', 'by Friday', '明天', '下周四', '上周', '下个月', '三天后', 'every Monday', '10:02', 'the last week of May'];
  const FILLER = ['We ship', 'the fix', ' and ', '; ', '. ', '\n', '，', '发布', 'Dana said', ' '];

  it('offsets and text agree, spans never overlap, and absolute text has nothing left to fix', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constantFrom(...PHRASES), fc.constantFrom(...FILLER)), { maxLength: 12 }), fc.integer({ min: 0, max: 3000 }), (parts, days) => {
        const text = parts.join(' ');
        const anchor = new Date(2025, 0, 1 + days, 12);
        const hits = findRelativeDates(text, anchor);
        let end = 0;
        for (const h of hits) {
          expect(h.start).toBeGreaterThanOrEqual(end);
          expect(text.slice(h.start, h.end)).toBe(h.text);
          expect(h.absolute).toMatch(/^\d{4}-\d{2}-\d{2}$/);
          end = h.end;
        }
        const fixed = makeDatesAbsolute(text, anchor);
        expect(findRelativeDates(fixed, anchor)).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});

describe('findRelativeDates on CRLF text', () => {
  // A blank line of a CRLF file ends a paragraph as an LF file's does: a habitual word in the
  // paragraph before does not reach the phrase.
  it.each([
    ['We usually ship on Fridays\r\n\r\nDeployed the fix yesterday\r\n'],
    ['Usually fine\r\n\r\nDeployed yesterday\r\n'],
  ])('finds what the same text with LF line ends gives: %j', (crlf) => {
    expect(found(crlf)).toEqual(found(crlf.replace(/\r\n/g, '\n')));
    expect(found(crlf).map(([t]) => t)).toEqual(['yesterday']);
  });

  it('finds the same phrases whatever the line ends (property)', () => {
    const phrase = fc.constantFrom('tomorrow', 'yesterday', 'next Thursday', 'last week', 'two weeks ago', 'by Friday', '明天', '上周');
    const line = fc.oneof(fc.constant(''), phrase.map((p) => `Deployed it ${p}`), phrase, fc.constantFrom('We usually ship', 'Always check it', '# Heading', '- item', 'It broke', 'We ship.', 'Dana said', '## 2026-04-20'));
    fc.assert(
      fc.property(fc.array(line, { maxLength: 10 }), (ls) => {
        const lf = ls.join('\n') + '\n';
        const crlf = ls.join('\r\n') + '\r\n';
        const at = (text: string) => findRelativeDates(text, FRIDAY).map((r) => [r.text, r.absolute, text.slice(0, r.start).split('\n').length]);
        expect(at(crlf)).toEqual(at(lf));
      }),
      { numRuns: 400 },
    );
  });
});
