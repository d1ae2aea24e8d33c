import { describe, expect, it } from 'vitest';
import { syncIndex } from '../../src/consolidate/index-sync.js';
import { headingType } from '../../src/memdir/entry-place.js';
import { insertionPoint } from '../../src/lint/rules/index-orphan.js';
import { parseIndex } from '../../src/memdir/memory-index.js';
import { topicEntry } from '../../src/memdir/topic-entry.js';
import { codePointLength } from '../../src/memdir/limits.js';
import { ctx, state, topic } from './helpers.js';

const t = (name: string, type: string, desc: string) => topic(name, type, desc, 'Body.\n');

describe('index synced with topics (step 2)', () => {
  it('adds an entry for an orphan topic in the section of its type, keeping headings and prose', () => {
    const index = '# Memory\n\nSome prose.\n\n## Feedback\n\n- [Testing](feedback_testing.md) — real db\n\n## Project\n\n- [Release](project_release.md) — freeze\n';
    const s = state({
      'MEMORY.md': index,
      'feedback_testing.md': t('Testing', 'feedback', 'real db'),
      'project_release.md': t('Release', 'project', 'freeze'),
      'feedback_pr_size.md': t('PR size', 'feedback', 'Split pull requests past 400 lines'),
    });
    const r = syncIndex(s, ctx());
    expect(r.state.files.get('MEMORY.md')).toBe(
      '# Memory\n\nSome prose.\n\n## Feedback\n\n- [Testing](feedback_testing.md) — real db\n- [PR size](feedback_pr_size.md) — Split pull requests past 400 lines\n\n## Project\n\n- [Release](project_release.md) — freeze\n',
    );
    expect(r.report.added.map((a) => a.target)).toEqual(['feedback_pr_size.md']);
  });

  it('creates the section of a type the index lacks when the index is organised by type', () => {
    const s = state({ 'MEMORY.md': '## Feedback\n\n- [A](a.md) — x\n', 'a.md': t('A', 'feedback', 'x'), 'user_role.md': t('Role', 'user', 'Backend lead') });
    expect(syncIndex(s, ctx()).state.files.get('MEMORY.md')).toBe('## Feedback\n\n- [A](a.md) — x\n\n## User\n\n- [Role](user_role.md) — Backend lead\n');
  });

  it('appends after the last entry when the index has no type sections', () => {
    const s = state({ 'MEMORY.md': '- [A](a.md) — x\n\nTrailing prose.', 'b.md': t('B', 'user', 'y'), 'a.md': t('A', 'user', 'x') });
    expect(syncIndex(s, ctx()).state.files.get('MEMORY.md')).toBe('- [A](a.md) — x\n- [B](b.md) — y\n\nTrailing prose.');
  });

  it('reads sections and code as the block model does: a setext heading is a section, a fence in a nested list is no place to write', () => {
    const index = 'Feedback\n---\n- [A](a.md) — x\n  - an entry reads:\n    ```md\n    - [E](e.md) — example\n    ```\n\nProject\n---\n- [P](p.md) — y\n';
    const s = state({ 'MEMORY.md': index, 'a.md': t('A', 'feedback', 'x'), 'p.md': t('P', 'project', 'y'), 'b.md': t('B', 'feedback', 'z') });
    const r = syncIndex(s, ctx());
    expect(r.state.files.get('MEMORY.md')).toBe(index.replace('    ```\n\n', '    ```\n- [B](b.md) — z\n\n'));
    expect(r.report.dangling).toEqual([]);
  });

  it('never appends inside an unclosed fence at the end of the index', () => {
    const s = state({ 'MEMORY.md': '- [A](a.md) — x\n\n```\nexample\n', 'a.md': t('A', 'user', 'x'), 'b.md': t('B', 'user', 'y') });
    expect(syncIndex(s, ctx()).state.files.get('MEMORY.md')).toBe('- [A](a.md) — x\n- [B](b.md) — y\n\n```\nexample\n');
    // With no entry to follow, the only place left is inside the code: nothing is added.
    const bare = state({ 'MEMORY.md': '# Memory\n\n```\nexample\n', 'b.md': t('B', 'user', 'y') });
    const r = syncIndex(bare, ctx());
    expect(r.state.files.get('MEMORY.md')).toBe('# Memory\n\n```\nexample\n');
    expect(r.report.added).toEqual([]);
  });

  it('counts the blank lines an entry written after the last line makes count: never past 200 lines', () => {
    // A heading, 196 entries and `## Project` read as 198 lines (Claude Code trims the blank line
    // at the end); the first project entry goes after that blank line, which then counts.
    const files: Record<string, string> = { 'MEMORY.md': `## User\n${Array.from({ length: 196 }, (_, i) => `- [Topic ${i}](t${i}.md) — entry`).join('\n')}\n## Project\n\n` };
    for (let i = 0; i < 196; i++) files[`t${i}.md`] = t(`Topic ${i}`, 'user', 'Entry');
    files['zz1.md'] = t('One', 'project', 'First orphan');
    files['zz2.md'] = t('Two', 'project', 'Second orphan');
    const index = syncIndex(state(files), ctx()).state.files.get('MEMORY.md')!;
    expect(index.trim().split('\n')).toHaveLength(200);
    expect(index).toContain('- [One](zz1.md) — First orphan');
    expect(index).not.toContain('zz2.md');
  });

  it('copies no hidden character of a topic into the entry it adds (an emoji keeps its joiner)', () => {
    // A zero-width space and a bidi control in name and description: in MEMORY.md they would be a
    // new no-hidden-unicode error, in a file consolidation wrote.
    const s = state({ 'MEMORY.md': '# Memory\n', 'user_role.md': t('Role\u200b and ownership', 'user', '\u{1F469}\u200d\u{1F4BB} Staff engineer\u200b who owns the \u202eledger') });
    expect(syncIndex(s, ctx()).state.files.get('MEMORY.md')).toBe('# Memory\n\n- [Role and ownership](user_role.md) — \u{1F469}\u200d\u{1F4BB} Staff engineer who owns the ledger\n');
  });

  it('shortens a long description at a word boundary so the entry fits 150 characters', () => {
    const long = 'word '.repeat(60).trim();
    const line = topicEntry('feedback_x.md', 'X', long)!;
    expect(codePointLength(line)).toBeLessThanOrEqual(150);
    expect(line.endsWith('word…')).toBe(true);
    expect(topicEntry('a b.md', 'a b', '')).toBe('- [a b](<a b.md>)');
  });

  it('moves an entry to the archive only when git shows its file deleted; one never committed is kept and reported', () => {
    const s = state({ 'MEMORY.md': '# Memory\n- [A](a.md) — x\n- [Gone](gone.md) — was here\n- [Never](never.md) — never copied\n- [Web](https://example.com/x.md)\n', 'a.md': t('A', 'user', 'x') });
    const c = ctx({}, { deletions: (rels) => new Map(rels.filter((r) => r === 'gone.md').map((r) => [r, { commit: 'abcdef1234567890abcd', date: '2026-10-01' }])) });
    const r = syncIndex(s, c);
    expect(r.state.files.get('MEMORY.md')).toBe('# Memory\n- [A](a.md) — x\n- [Never](never.md) — never copied\n- [Web](https://example.com/x.md)\n');
    const archive = r.state.archive.get('ARCHIVE.md')!;
    expect(archive).toContain('- [Gone](gone.md) — was here (removed from MEMORY.md on 2026-11-29: the file was deleted in commit abcdef123456 (2026-10-01))');
    expect(archive).not.toContain('never.md');
    expect(r.report.dangling.map((d) => d.target)).toEqual(['gone.md']);
    expect(r.report.missing).toEqual([{ target: 'never.md', line: 4, reason: 'the file was never committed' }]);
  });

  it('an entry for a file of a nested memory folder (a team store mounted as team/<mount>/ with its own MEMORY.md) is not missing', () => {
    // Claude Code 2.1.332 indexes a mounted team store's memories as team/<mount>/file.md; the
    // folder holds its own index, so its files are not this memdir's, but they are there.
    const s = state({ 'MEMORY.md': '- [A](a.md) — x\n- [on-call-rotation](team/eng/on-call-rotation.md) — who is on call\n', 'a.md': t('A', 'user', 'x') });
    const c = ctx({ allPaths: new Set(['MEMORY.md', 'a.md', 'team/eng/MEMORY.md', 'team/eng/on-call-rotation.md']) }, { deletions: () => new Map() });
    const r = syncIndex(s, c);
    expect(r.state.files.get('MEMORY.md')).toBe('- [A](a.md) — x\n- [on-call-rotation](team/eng/on-call-rotation.md) — who is on call\n');
    expect(r.report.missing).toEqual([]);
    expect(r.report.dangling).toEqual([]);
  });

  it('merges a duplicate that says nothing else: the first stays, taking a hook it lacked; one with a title of its own is left', () => {
    const s = state({ 'MEMORY.md': '- [A](a.md)\n- [B](b.md) — b\n- [A](./a.md) — the hook\n- [B](b.md)\n- [B again](b.md) — b\n', 'a.md': t('A', 'user', 'x'), 'b.md': t('B', 'user', 'b') });
    const r = syncIndex(s, ctx());
    expect(r.state.files.get('MEMORY.md')).toBe('- [A](a.md) — the hook\n- [B](b.md) — b\n- [B again](b.md) — b\n');
    expect(r.state.files.get('a.md')).toBe(t('A', 'user', 'x'));
    expect(r.state.files.get('b.md')).toBe(t('B', 'user', 'b'));
    expect(r.report.duplicates).toEqual([{ target: 'a.md', line: 3, keptLine: 1 }, { target: 'b.md', line: 4, keptLine: 2 }]);
    expect(r.report.differing).toEqual([{ target: 'b.md', line: 5, keptLine: 2 }]);
  });

  it('leaves a second entry with words of its own: a correction written after the first is not merged away (fifteenth held-out set)', () => {
    const index = '- [Fiscal calendar differs by ledger](fiscal.md) — the 2025 ledger closes in March\n- [Fiscal calendar — CORRECTED](fiscal.md) — the 2025 ledger closes in April, not March\n';
    const s = state({ 'MEMORY.md': index, 'fiscal.md': t('Fiscal calendar', 'project', 'x') });
    const r = syncIndex(s, ctx());
    expect(r.state.files.get('MEMORY.md')).toBe(index);
    expect(r.state.files.get('fiscal.md')).toBe(t('Fiscal calendar', 'project', 'x'));
    expect(r.report).toMatchObject({ duplicates: [], differing: [{ target: 'fiscal.md', line: 2, keptLine: 1 }] });
  });

  it('leaves a long second entry as a second entry once shortened: its hook moved into the topic is still its own, and a second run changes nothing', () => {
    const long = `- [A](a.md) — ${'the second entry says what the first does not '.repeat(4).trim()}`;
    const s = state({ 'MEMORY.md': `- [A](a.md) — first hook\n${long}\n`, 'a.md': t('A', 'user', 'x') });
    const r = syncIndex(s, ctx());
    expect(r.report.shortened).toHaveLength(1);
    expect(r.report.differing).toHaveLength(1);
    expect(r.state.files.get('MEMORY.md')!.split('\n')).toHaveLength(3);
    expect(syncIndex(r.state, ctx()).state.files).toEqual(r.state.files);
  });

  it('moves no text into a topic past what recall shows: the long entry and the duplicate stay as they are, reported', () => {
    // 4,030 bytes: room for no hook of 60 characters within the 4,096 bytes recall shows.
    const fact = 'Staging deploys from the release branch after the nightly build; production waits.\n';
    const head = topic('Deploy', 'project', 'deploy steps', '');
    const body = fact.repeat(Math.floor((4030 - head.length) / fact.length));
    const full = head + body + 'x'.repeat(4029 - head.length - body.length) + '\n';
    expect(Buffer.byteLength(full)).toBe(4030);
    const long = `- [Deploy](deploy.md) — ${'staging deploys from the release branch, production waits for a sign-off '.repeat(2).trim()}`;
    const index = `${long}\n- [Deploy](deploy.md) — a second hook with a different text of sixty characters or so\n`;
    const r = syncIndex(state({ 'MEMORY.md': index, 'deploy.md': full }), ctx());
    expect(r.state.files.get('MEMORY.md')).toBe(index);
    expect(r.state.files.get('deploy.md')).toBe(full);
    expect(r.report.pastRecall).toEqual([{ target: 'deploy.md', line: 1 }]);
    expect(r.report.differing).toEqual([{ target: 'deploy.md', line: 2, keptLine: 1 }]);
    expect(r.report).toMatchObject({ shortened: [], duplicates: [] });
    // With room, the long entry is shortened; the second entry, saying what the first does not, stays.
    const small = topic('Deploy', 'project', 'deploy steps', fact);
    const roomy = syncIndex(state({ 'MEMORY.md': index, 'deploy.md': small }), ctx());
    expect(roomy.report.pastRecall).toEqual([]);
    expect(roomy.report.shortened).toHaveLength(1);
    expect(roomy.report).toMatchObject({ duplicates: [], differing: [{ target: 'deploy.md', line: 2, keptLine: 1 }] });
  });

  it('merges a duplicate whose different hook the topic itself already says', () => {
    const s = state({ 'MEMORY.md': '- [A](a.md) — first hook\n- [A](a.md) — second hook\n', 'a.md': t('A', 'user', 'x') + 'The second hook.\n' });
    const r = syncIndex(s, ctx());
    expect(r.state.files.get('MEMORY.md')).toBe('- [A](a.md) — first hook\n');
    expect(r.state.files.get('a.md')).toBe(t('A', 'user', 'x') + 'The second hook.\n');
  });

  it('moves a shortened hook into the topic\'s "## From the index" section, never into the dated section before it (issue 29: one run settles)', () => {
    // A report titled with its date: text appended to its last section would be counted from that
    // date by the next run's date step, though it was written with the index line.
    const hook = `the layout puts the demo above the video today; ${'detail '.repeat(25).trim()}`;
    const body = '# Layout read (2026-06-19)\n\n## Verdict\n\n- keep the order\n';
    const s = state({ 'MEMORY.md': `- [A](a.md) — ${hook}\n`, 'a.md': topic('A', 'project', 'Layout read', body) });
    const r = syncIndex(s, ctx());
    expect(r.state.files.get('a.md')).toBe(topic('A', 'project', 'Layout read', body) + `\n## From the index\n\n${hook}\n`);
    expect(syncIndex(r.state, ctx()).state.files).toEqual(r.state.files);
  });

  it('shortens an over-long entry and moves its full hook into the topic', () => {
    const hook = 'Detail '.repeat(30).trim();
    const s = state({ 'MEMORY.md': `- [A](a.md) — ${hook}\n`, 'a.md': t('A', 'user', 'x') });
    const r = syncIndex(s, ctx());
    const line = r.state.files.get('MEMORY.md')!.trimEnd();
    expect(codePointLength(line)).toBeLessThanOrEqual(150);
    expect(r.state.files.get('a.md')).toContain(hook);
    // Idempotent: the second run changes nothing.
    const again = syncIndex(r.state, ctx());
    expect(again.state.files).toEqual(r.state.files);
  });

  it('shortens an over-long entry written with " -- " (an em dash typed in ASCII), keeping its separator once', () => {
    const hook = 'Detail '.repeat(30).trim();
    const s = state({ 'MEMORY.md': `- [Bevy notes](bevy.md) -- ${hook}\n`, 'bevy.md': t('Bevy notes', 'reference', 'x') });
    const r = syncIndex(s, ctx());
    const line = r.state.files.get('MEMORY.md')!.trimEnd();
    expect(line).toMatch(/^- \[Bevy notes\]\(bevy\.md\) -- Detail Detail/);
    expect(codePointLength(line)).toBeLessThanOrEqual(150);
    expect(syncIndex(r.state, ctx()).state.files).toEqual(r.state.files);
  });

  it('shortens an over-long entry with trailing spaces and a colon separator', () => {
    const hook = 'word '.repeat(40).trim();
    const s = state({ 'MEMORY.md': `* [A](a.md): ${hook}   \n`, 'a.md': t('A', 'user', 'x') });
    const line = syncIndex(s, ctx()).state.files.get('MEMORY.md')!;
    // Cut as index-line-length's fix cuts it: at a word, no mark added.
    expect(line).toMatch(/^\* \[A\]\(a\.md\): word( word)*\n$/);
    expect(codePointLength(line.trimEnd())).toBeLessThanOrEqual(150);
  });

  it('shortens an entry whose hook opens with a long token as lint does, and says why it leaves one it cannot shorten (fifteenth held-out set)', () => {
    const title = `- [Build step runs the app's startup code](build-step-runs-the-apps-startup-code-at-build-time.md)`;
    const index = `${title} — Contoso.Extensions.ApiDescription.Server.Tool runs Program.cs up to app.Run() and needs the real database\n- [B](b.md) — ${'detail '.repeat(30).trim()}\n`;
    const s = state({ 'MEMORY.md': index, 'build-step-runs-the-apps-startup-code-at-build-time.md': t('Build step', 'feedback', 'x') });
    const r = syncIndex(s, ctx());
    const lines = r.state.files.get('MEMORY.md')!.split('\n');
    expect(lines[0]).toBe(`${title} — Contoso.Extensions.ApiDescription.Server.Tool`);
    expect(r.report.tooLong).toEqual([{ target: 'b.md', line: 2, reason: 'no topic file b.md here to receive the detail' }]);
  });

  it('shortens an over-long entry written with "; " after its link (the eleventh held-out set), keeping its separator once', () => {
    const hook = 'drive by git -C and absolute paths; the guard catches chains; '.repeat(3).trim();
    const s = state({ 'MEMORY.md': `- [Cross-repo cwd](cwd.md); ${hook}\n`, 'cwd.md': t('Cross-repo cwd', 'feedback', 'x') });
    const r = syncIndex(s, ctx());
    const line = r.state.files.get('MEMORY.md')!;
    expect(line).toMatch(/^- \[Cross-repo cwd\]\(cwd\.md\); drive by git -C/);
    expect(codePointLength(line.trimEnd())).toBeLessThanOrEqual(150);
    // The whole hook, without the separator, moves into the topic.
    expect(r.state.files.get('cwd.md')).toContain(`\n${hook}`);
    expect(syncIndex(r.state, ctx()).state.files).toEqual(r.state.files);
  });

  it('leaves an index in sync byte for byte (CRLF, no final newline)', () => {
    const index = '# Memory\r\n\r\n- [A](a.md) — x\r\n<!-- note -->';
    const s = state({ 'MEMORY.md': index, 'a.md': t('A', 'user', 'x') });
    expect(syncIndex(s, ctx()).state.files.get('MEMORY.md')).toBe(index);
  });

  it('indexes only top-level topic files, never logs or other subfolders', () => {
    const s = state({ 'MEMORY.md': '- [A](a.md) — x\n', 'a.md': t('A', 'user', 'x'), 'sessions/2026-11-01.md': 'notes\n', 'logs/2026/11/2026-11-01.md': '- x\n' });
    expect(syncIndex(s, ctx()).state.files.get('MEMORY.md')).toBe('- [A](a.md) — x\n');
  });

  it('archives a second entry for a missing file rather than dropping its hook', () => {
    const s = state({ 'MEMORY.md': '- [A](gone.md) — first\n- [A](gone.md) — second\n' });
    const r = syncIndex(s, ctx());
    expect(r.state.files.get('MEMORY.md')).toBe('- [A](gone.md) — first\n');
    const archive = r.state.archive.get('ARCHIVE.md')!;
    expect(archive).toContain('- [A](gone.md) — second (removed from MEMORY.md on 2026-11-29: a second entry for a file that does not exist)');
  });

  it('adds no second line for a topic the index names another way (a table of files, a back-ticked name)', () => {
    const index = '# Memory\n\n| Date | File |\n|---|---|\n| 2026-08-21 | [notes](2026-08-21.md) |\n\n- [A](a.md) — x\n- Columns: see `b.md`\n';
    const s = state({ 'MEMORY.md': index, 'a.md': t('A', 'user', 'x'), 'b.md': t('B', 'reference', 'columns'), '2026-08-21.md': t('Notes', 'project', 'docs v2'), 'c.md': t('C', 'user', 'c') });
    const r = syncIndex(s, ctx());
    expect(r.state.files.get('MEMORY.md')).toBe(index.replace('- [A](a.md) — x\n', '- [A](a.md) — x\n- [C](c.md) — c\n'));
    expect(r.report.added.map((a) => a.target)).toEqual(['c.md']);
  });

  it('adds no second line for a topic the index names by its path from the repository root (seventh held-out set)', () => {
    const index = '- [A](a.md) — x\n- Grants: see `.claude/agent-memory/ops/b.md`\n';
    const s = state({ 'MEMORY.md': index, 'a.md': t('A', 'user', 'x'), 'b.md': t('B', 'reference', 'grants'), 'c.md': t('C', 'user', 'c') });
    const r = syncIndex(s, ctx({ fromRoot: '.claude/agent-memory/ops' }));
    expect(r.report.added.map((a) => a.target)).toEqual(['c.md']);
  });

  it('adds no line for topics the index names by their stem or a glob in backticks (eighth held-out set)', () => {
    const index = '- [A](a.md) — x\n\nDetail lives in `deploy-runbook` and the `plan-q1-*` plans; `ops/ref_*.md` is deprecated, as is ops/old_*.md.\n- History: `ops/history.md`\n';
    const s = state({ 'MEMORY.md': index, 'a.md': t('A', 'user', 'x'), 'deploy-runbook.md': t('Deploy', 'reference', 'd'), 'plan-q1-search.md': t('Search', 'project', 's'), 'ref_api.md': t('API', 'reference', 'a'), 'old_notes.md': t('Old', 'reference', 'o'), 'history.md': t('History', 'project', 'h'), 'c.md': t('C', 'user', 'c') });
    const r = syncIndex(s, ctx({ fromRoot: '.claude/agent-memory/ops' }));
    expect(r.report.added.map((a) => a.target)).toEqual(['c.md']);
  });

  it('adds no line for a topic a [[name]] link names, nor for a draft sharing a linked name (sixteenth held-out set)', () => {
    const index = '- [[ledger-rounding]] — ledger amounts round half-to-even\n- [[nightly-export]] — the nightly export\n';
    const s = state({ 'MEMORY.md': index, 'ledger-rounding.md': t('ledger-rounding', 'feedback', 'Round half-to-even'), 'feedback_rounding_draft.md': t('ledger-rounding', 'feedback', 'First draft'), 'project_exports.md': t('nightly-export', 'project', 'The nightly export'), 'project_billing.md': t('billing', 'project', 'Invoices') });
    const r = syncIndex(s, ctx());
    expect(r.report.added.map((a) => a.target)).toEqual(['project_billing.md']);
  });

  it('puts an orphan\'s entry where lint\'s --fix puts it: one placement for both (sixteenth held-out set)', () => {
    // The sixteenth set: --fix appended after a closing paragraph, a comment or a blank line where
    // consolidation wrote after the last entry. Each index, one orphan: the same file from both.
    const indexes = [
      '- [A](a.md) — x\n\nProse about the topics.\n',
      '- [A](a.md) — x\n- Column notes live in `b.md`.\n<!-- old -->\n',
      '# Memory\n\n## User\n- [A](a.md) — x\n\n## Project notes\n- [P](p.md) — y\n\nWritten by hand.\n',
      '## Project\n\n## User\n- [A](a.md) — x\n',
      'Project\n-------\n- [P](p.md) — y\n\nUser\n----\n- [A](a.md) — x\n',
      '- [A](a.md) — x\n- 2026-08-07 — a dated note, not an entry\n\n',
      '- [A](a.md) — x',
    ];
    for (const index of indexes) {
      const topics: Record<string, string> = { 'a.md': t('A', 'user', 'x'), 'p.md': t('P', 'project', 'y'), 'b.md': t('B', 'user', 'b') };
      const named = Object.fromEntries(Object.entries(topics).filter(([rel]) => index.includes(rel)));
      const files = { 'MEMORY.md': index, ...named, 'new.md': t('New', 'project', 'A new memory') };
      const r = syncIndex(state(files), ctx());
      const line = topicEntry('new.md', 'New', 'A new memory')!;
      const at = insertionPoint(parseIndex(index), index, 'project');
      const fixed = index.slice(0, at.offset) + (at.atEnd ? `\n${line}` : `${line}\n`) + index.slice(at.offset);
      expect(r.report.added.map((a) => a.target), index).toContain('new.md');
      expect(r.state.files.get('MEMORY.md'), index).toBe(fixed);
    }
  });

  it('uses the room its own shortening makes for orphan entries in the same run (issue 29: one run settles)', () => {
    // 90 entries of about 290 characters: 26,000 UTF-16 units, past Claude Code's 25,000, so the
    // raw index has no room; shortened to 150 characters each, it has plenty.
    const files: Record<string, string> = {};
    const entries: string[] = [];
    for (let n = 1; n <= 90; n++) {
      files[`project_t${n}.md`] = t(`T${n}`, 'project', 'x');
      entries.push(`- [Topic ${n}](project_t${n}.md) — ${'detail '.repeat(38).trim()}`);
    }
    files['MEMORY.md'] = entries.join('\n') + '\n';
    files['project_new.md'] = t('New', 'project', 'A topic the index does not name yet');
    const r = syncIndex(state(files), ctx());
    expect(r.report.shortened).toHaveLength(90);
    expect(r.report.added.map((a) => a.target)).toEqual(['project_new.md']);
    // A second run has nothing left to do.
    expect(syncIndex(r.state, ctx()).report).toMatchObject({ added: [], shortened: [] });
  });

  it('reads the type of a section heading', () => {
    expect(headingType('Feedback')).toBe('feedback');
    expect(headingType('Project notes')).toBe('project');
    expect(headingType('User and project')).toBeUndefined();
    expect(headingType('Notes')).toBeUndefined();
  });
});
