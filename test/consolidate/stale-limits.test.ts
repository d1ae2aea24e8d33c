import { describe, expect, it } from 'vitest';
import { findStale, latestDate } from '../../src/consolidate/stale.js';
import { checkLimits, limitsMessage } from '../../src/consolidate/limits.js';
import { ctx, state, topic } from './helpers.js';

describe('stale project memories (step 5)', () => {
  const old = topic('Old', 'project', 'Cutover on 2026-03-01', 'Planned for 2026-03-01.\n');
  const fresh = topic('Fresh', 'project', 'Freeze', 'Ends on 2027-01-04.\n');
  const user = topic('Role', 'user', 'Lead since 2020-01-01', 'x\n');

  it('finds the latest date in a memory', () => {
    expect(latestDate('a 2026-01-02 b 2025-13-40 c 2026-03-04', '2026-02-01T10:00:00Z')).toBe('2026-03-04');
    expect(latestDate('no dates', undefined)).toBeUndefined();
  });

  it('reports project memories older than staleDays, and only project ones', () => {
    const s = state({ 'MEMORY.md': '- [Old](project_old.md) — x\n', 'project_old.md': old, 'project_fresh.md': fresh, 'user_role.md': user });
    const r = findStale(s, ctx({}, { lastCommitDates: () => new Map([['project_old.md', '2026-02-20']]) }));
    expect(r.report.stale).toEqual([{ file: 'project_old.md', latest: '2026-03-01' }]);
    expect(r.state).toBe(s);
  });

  it('counts a memory committed since its last date as that recent: the date is what it talks about', () => {
    const s = state({ 'project_old.md': old, 'project_new.md': old });
    // project_old.md last committed long ago; project_new.md edited and committed today; a third
    // never committed is written now.
    const r = findStale(s, ctx({}, { lastCommitDates: () => new Map([['project_old.md', '2026-02-20'], ['project_new.md', '2026-11-29']]) }));
    expect(r.report.stale).toEqual([{ file: 'project_old.md', latest: '2026-03-01' }]);
    expect(findStale(state({ 'project_draft.md': old }), ctx()).report.stale).toEqual([]);
    // A `modified` says when it was last written: a later commit (a rename, a reformat) does not renew it.
    const dated = old.replace('type: project\n', 'type: project\nmodified: 2026-03-01T00:00:00Z\n');
    expect(dated).toContain('modified: 2026-03-01');
    expect(findStale(state({ 'project_new.md': dated }), ctx({}, { lastCommitDates: () => new Map([['project_new.md', '2026-11-29']]) })).report.stale).toEqual([{ file: 'project_new.md', latest: '2026-03-01' }]);
    // Outside git, the memory's own dates are all there is.
    expect(findStale(state({ 'project_old.md': old }), ctx({}, { inGit: false })).report.stale).toEqual([{ file: 'project_old.md', latest: '2026-03-01' }]);
  });

  it('uses the last commit date when the memory carries no date', () => {
    const s = state({ 'p.md': topic('P', 'project', 'no date', 'x\n') });
    const r = findStale(s, ctx({}, { lastCommitDates: () => new Map([['p.md', '2025-01-01']]) }));
    expect(r.report.stale).toEqual([{ file: 'p.md', latest: '2025-01-01' }]);
  });

  it('moves stale memories to the archive with their entry under --prune', () => {
    const s = state({ 'MEMORY.md': '# M\n- [Old](project_old.md) — x\n', 'project_old.md': old });
    const r = findStale(s, ctx({ prune: true }, { lastCommitDates: () => new Map([['project_old.md', '2026-02-20']]) }));
    expect(r.state.files.has('project_old.md')).toBe(false);
    expect(r.state.archive.get('project_old.md')).toBe(old);
    expect(r.state.files.get('MEMORY.md')).toBe('# M\n');
    expect(r.state.archive.get('ARCHIVE.md')).toContain('- [Old](project_old.md) — x (archived on 2026-11-29: stale: latest date 2026-03-01, more than 90 days before 2026-11-29)');
  });
});

describe('limits (step 6)', () => {
  const entries = (n: number) => Array.from({ length: n }, (_, i) => `- [T${i}](t${i}.md) — hook ${i}`).join('\n') + '\n';

  it('passes an index within the limits', () => {
    expect(checkLimits(entries(10), () => undefined, new Set()).ok).toBe(true);
  });

  it('names the entries the agent will not see and which to archive, stale ones first', () => {
    const r = checkLimits(entries(205), (t) => (t === 't3.md' ? '2020-01-01' : '2026-01-01'), new Set(['t7.md']));
    expect(r.ok).toBe(false);
    expect(r.lines).toBe(205);
    expect(r.hidden.map((h) => h.target)).toEqual(['t200.md', 't201.md', 't202.md', 't203.md', 't204.md']);
    expect(r.suggest.slice(0, 2)).toEqual(['t7.md', 't3.md']);
    expect(r.suggest).toHaveLength(5);
    expect(limitsMessage('.claude/memory', r)).toMatch(/^\.claude\/memory\/MEMORY\.md is 205 lines \(limit 200\): the agent will not see t200\.md, t201\.md, t202\.md, t203\.md, t204\.md; archive t7\.md, t3\.md/);
  });

  it('says the text is what is long when archiving every entry would not make the index fit', () => {
    // Real memory (eighth and ninth held-out sets): indexes of up to 529 lines, mostly notes and
    // headings; the message said "archive  (move each file …)" naming no file.
    const notes = `# Project notes\n\n${Array.from({ length: 230 }, (_, i) => `Note ${i}: how the build was set up.`).join('\n')}\n- [T](t.md) — a topic\n`;
    const r = checkLimits(notes, () => undefined, new Set());
    expect([r.ok, r.lines, r.suggest, r.notEntries]).toEqual([false, 233, [], 232]);
    expect(limitsMessage('memory', r)).toBe(
      'memory/MEMORY.md is 233 lines (limit 200): the agent will not see t.md; archiving entries would not be enough: 232 of its lines are not entries (headings, notes): move that text into topic files, each with one entry line',
    );
    const allNotes = checkLimits(`${Array.from({ length: 205 }, (_, i) => `line ${i}`).join('\n')}\n`, () => undefined, new Set());
    expect(limitsMessage('memory', allNotes)).toBe(
      'memory/MEMORY.md is 205 lines (limit 200): the agent will not see its last lines; archiving entries would not be enough: 205 of its lines are not entries (headings, notes): move that text into topic files, each with one entry line',
    );
  });

  it('counts UTF-16 units as Claude Code does', () => {
    const long = Array.from({ length: 150 }, (_, i) => `- [T${i}](t${i}.md) — ${'汉'.repeat(160)}`).join('\n') + '\n';
    const r = checkLimits(long, () => undefined, new Set());
    expect(r.ok).toBe(false);
    expect(r.units).toBeGreaterThan(25_000);
    expect(r.hidden.length).toBeGreaterThan(0);
  });
});
