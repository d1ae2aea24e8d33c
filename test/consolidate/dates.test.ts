import { describe, expect, it } from 'vitest';
import { absoluteDates } from '../../src/consolidate/dates.js';
import { loadDateFinder } from '../../src/consolidate/date-finder.js';
import { ctx, state, topic } from './helpers.js';

describe('dates made absolute (step 4)', () => {
  it('anchors a daily log at its own date: "moved to next Thursday" in the log of Monday 2026-04-27 is 2026-04-30', async () => {
    const find = await loadDateFinder();
    const s = state({ 'logs/2026/04/2026-04-27.md': '- 10:00 release moved to next Thursday [project_release]\n- 11:00 review tomorrow\n' });
    const r = absoluteDates(s, ctx(), find);
    expect(r.state.files.get('logs/2026/04/2026-04-27.md')).toBe('- 10:00 release moved to 2026-04-30 [project_release]\n- 11:00 review 2026-04-28\n');
    expect(r.report.fixed).toEqual([
      { file: 'logs/2026/04/2026-04-27.md', line: 1, from: 'next Thursday', to: '2026-04-30', anchor: '2026-04-27' },
      { file: 'logs/2026/04/2026-04-27.md', line: 2, from: 'tomorrow', to: '2026-04-28', anchor: '2026-04-27' },
    ]);
  });

  it("anchors a topic line at its commit date, and an uncommitted line at today", async () => {
    const find = await loadDateFinder();
    const text = topic('R', 'project', 'r', 'Committed: freeze starts tomorrow.\nNew: review tomorrow.\n');
    // Line 7 was committed on 2026-04-27; line 8 is not committed.
    const s = state({ 'project_r.md': text });
    const r = absoluteDates(s, ctx({}, { today: '2026-11-29', lineDates: () => Object.assign([], { 7: '2026-04-27' }) }), find);
    expect(r.state.files.get('project_r.md')).toBe(topic('R', 'project', 'r', 'Committed: freeze starts 2026-04-28.\nNew: review 2026-11-30.\n'));
  });

  it('changes nothing when there is no relative date, and asks git nothing', async () => {
    const find = await loadDateFinder();
    const s = state({ 'a.md': topic('A', 'user', 'x', 'On 2026-01-02 it shipped.\n') });
    const r = absoluteDates(s, ctx({}, { lineDates: () => { throw new Error('no git call expected'); } }), find);
    expect(r.state).toBe(s);
  });
});
