import { describe, expect, it } from 'vitest';
import { absoluteDates, type DateFix, type RelativeDateFinder } from '../../src/consolidate/dates.js';
import { loadDateFinder } from '../../src/consolidate/date-finder.js';
import { ctx, state, topic } from './helpers.js';

describe('dates made absolute (step 4)', () => {
  it('anchors a daily log at its own date: "moved to Thursday next week" in the log of Monday 2026-04-27 is 2026-05-07', async () => {
    const find = await loadDateFinder();
    const s = state({ 'logs/2026/04/2026-04-27.md': '- 10:00 release moved to Thursday next week [project_release]\n- 11:00 review tomorrow\n' });
    const r = absoluteDates(s, ctx(), find);
    expect(r.state.files.get('logs/2026/04/2026-04-27.md')).toBe('- 10:00 release moved to Thursday next week (2026-05-07) [project_release]\n- 11:00 review tomorrow (2026-04-28)\n');
    expect(r.report.fixed).toEqual([
      { file: 'logs/2026/04/2026-04-27.md', line: 1, from: 'Thursday next week', to: 'Thursday next week (2026-05-07)', anchor: '2026-04-27' },
      { file: 'logs/2026/04/2026-04-27.md', line: 2, from: 'tomorrow', to: 'tomorrow (2026-04-28)', anchor: '2026-04-27' },
    ]);
    // Idempotent: the paired form is absolute.
    expect(absoluteDates(r.state, ctx(), find).report.fixed).toEqual([]);
  });

  it('leaves "next Thursday" said while a Thursday still comes this week: it may mean either week', async () => {
    const find = await loadDateFinder();
    // Monday 2026-04-27: this week's Thursday is 2026-04-30, next week's 2026-05-07. Friday
    // 2026-05-01: the coming Thursday is next week's in weeks from Monday and from Sunday.
    const s = state({ 'logs/2026/04/2026-04-27.md': '- 10:00 release moved to next Thursday\n', 'logs/2026/05/2026-05-01.md': '- 10:00 release moved to next Thursday\n' });
    const r = absoluteDates(s, ctx(), find);
    expect(r.report.fixed).toEqual([{ file: 'logs/2026/05/2026-05-01.md', line: 1, from: 'next Thursday', to: 'next Thursday (2026-05-07)', anchor: '2026-05-01' }]);
  });

  it('leaves a date it cannot be sure of: one counted from a commit date or today, or a bare weekday', async () => {
    const find = await loadDateFinder();
    const text = topic('R', 'project', 'r', 'Committed: freeze starts tomorrow.\nNew: review tomorrow.\n');
    // Line 7 was committed on 2026-04-27 (maybe days after it was written); line 8 is not committed.
    const s = state({ 'project_r.md': text, 'logs/2026/04/2026-04-27.md': '- 10:00 deploy by Friday\n' });
    const r = absoluteDates(s, ctx({}, { today: '2026-11-29', lineDates: () => Object.assign([], { 7: '2026-04-27' }) }), find);
    expect(r.state).toBe(s);
    expect(r.report).toEqual({ fixed: [], left: 3 });
  });

  it('counts as left only what lint reports: a commit-dated "today" that says how things stand is no date (tenth held-out set)', async () => {
    const find = await loadDateFinder();
    const text = topic('R', 'project', 'r', '- Webhooks retry three times (still on the old queue today).\nRegistered handlers today: `invoice`, `refund`.\nWe moved the cron to the new host today.\n');
    const s = state({ 'project_r.md': text });
    const r = absoluteDates(s, ctx({}, { today: '2026-11-29', lineDates: () => Object.assign([], { 7: '2026-04-27', 8: '2026-04-27', 9: '2026-04-27' }) }), find);
    expect(r.state).toBe(s);
    // Lint reports the one event (line 9) and neither statement of how things stand.
    expect(r.report).toEqual({ fixed: [], left: 1 });
  });

  it("writes no date into a phrase its file's name holds: there it names the file's subject (thirteenth held-out set)", async () => {
    const find = await loadDateFinder();
    const note = 'Date: 2026-03-24\n\n- The draft for next month is built on the 25th.\n- Shipped the draft button yesterday.\n';
    const s = state({ 'project_drafts-for-next-month.md': topic('C', 'project', 'c', note) });
    const r = absoluteDates(s, ctx({}, { today: '2026-11-29', lineDates: () => Array(20).fill('2026-03-30') }), find);
    expect(r.state.files.get('project_drafts-for-next-month.md')).toBe(topic('C', 'project', 'c', note.replace('yesterday', 'yesterday (2026-03-23)')));
    expect(r.report.fixed.map((f) => f.from)).toEqual(['yesterday']);
  });

  it('writes a date only where its sentence tells an event, not into a spec that names the day it runs (thirteenth held-out set)', async () => {
    const find = await loadDateFinder();
    const spec = [
      'Date: 2026-03-24',
      '',
      '### Previous Month Totals Helper',
      '',
      '1. Compute previous month (January wraps to December).',
      '',
      '| Case | Result |',
      '|---|---|',
      '| Empty previous month | toast |',
      '',
      '- **Savings card**: top 5 goals this month.',
      '',
      'We moved the spec review to tomorrow.',
      '',
    ].join('\n');
    const s = state({ 'project_totals.md': topic('T', 'project', 't', spec) });
    const r = absoluteDates(s, ctx({}, { today: '2026-11-29', lineDates: () => Array(30).fill('2026-03-24') }), find);
    expect(r.report.fixed.map((f) => `${f.line} ${f.to}`)).toEqual(['19 tomorrow (2026-03-25)']);
    // The others are left for lint to report and a person to date.
    expect(r.report.left).toBe(4);
  });

  it("counts from the date the text gives for itself, before the commit date: a dated section, a note's date line", async () => {
    const find = await loadDateFinder();
    const body = '## 2026-03-23 (pass 13)\n\nRe-review tomorrow.\n\n## Notes\n\nShip next Friday.\n';
    const note = 'Date: 2026-03-24\n\nShe offered to call tomorrow.\n';
    const s = state({ 'project_log.md': topic('L', 'project', 'l', body), 'project_handoff.md': topic('H', 'project', 'h', note) });
    // Committed days later: the commit date is not when it was written.
    const r = absoluteDates(s, ctx({}, { today: '2026-11-29', lineDates: () => Array(20).fill('2026-03-30') }), find);
    expect(r.state.files.get('project_log.md')).toBe(topic('L', 'project', 'l', body.replace('tomorrow', 'tomorrow (2026-03-24)')));
    expect(r.state.files.get('project_handoff.md')).toBe(topic('H', 'project', 'h', note.replace('tomorrow', 'tomorrow (2026-03-25)')));
    expect(r.report.left).toBe(1);
  });

  it('changes nothing when there is no relative date, and asks git nothing', async () => {
    const find = await loadDateFinder();
    const s = state({ 'a.md': topic('A', 'user', 'x', 'On 2026-01-02 it shipped.\n') });
    const r = absoluteDates(s, ctx({}, { lineDates: () => { throw new Error('no git call expected'); } }), find);
    expect(r.state).toBe(s);
  });

  // A topic of relative dates under a dated section: every one certain, 10,000 fixes in one file.
  // The work is counted as the characters the step slices out of strings (never timed): the fixes
  // were applied one by one, each copying the whole text (quadratic in the number of fixes), and
  // the text was searched twice (a probe from today, then from each line's own day).
  describe('a file of thousands of certain fixes', () => {
    const tomorrow = (lines: number) => `## 2026-04-27\n\n${Array.from({ length: lines }, (_, i) => `- item ${i}: review tomorrow\n`).join('')}`;
    const finder = (calls: { n: number }): RelativeDateFinder => (text) => {
      calls.n++;
      const fixes: DateFix[] = [];
      for (let at = text.indexOf('tomorrow'); at >= 0; at = text.indexOf('tomorrow', at + 1)) fixes.push({ start: at, end: at + 8, replacement: 'tomorrow (2026-04-28)', exact: true, told: true });
      return fixes;
    };
    function work(lines: number): { sliced: number; finds: number; fixed: number; text: string | undefined } {
      const calls = { n: 0 };
      const s = state({ 'project_review.md': topic('R', 'project', 'r', tomorrow(lines)) });
      const slice = String.prototype.slice;
      let sliced = 0;
      String.prototype.slice = function (this: string, ...args: Parameters<typeof slice>) {
        const out = slice.apply(this, args);
        sliced += out.length;
        return out;
      };
      try {
        const r = absoluteDates(s, ctx({}, { today: '2026-11-29', lineDates: () => [] }), finder(calls));
        return { sliced, finds: calls.n, fixed: r.report.fixed.length, text: r.state.files.get('project_review.md') };
      } finally {
        String.prototype.slice = slice;
      }
    }

    it('applies them in one pass over the text, and looks for the dates once', () => {
      const small = work(1_000);
      const large = work(10_000);
      expect(large.fixed).toBe(10_000);
      expect(large.text).toBe(topic('R', 'project', 'r', tomorrow(10_000).replaceAll('tomorrow', 'tomorrow (2026-04-28)')));
      // Ten times the fixes, about ten times the copying (it was about a hundred times).
      expect(large.sliced / small.sliced).toBeLessThan(15);
      expect(large.finds).toBe(1);
    });
  });
});
