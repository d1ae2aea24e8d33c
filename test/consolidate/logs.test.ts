import { describe, expect, it } from 'vitest';
import { logsToTopics, parseLogEntries, topicReferences } from '../../src/consolidate/logs.js';
import { state, topic } from './helpers.js';

const testing = topic('Testing', 'feedback', 'Integration tests hit a real database', '- Never mock the database.\n');

describe('logs into topics (step 1)', () => {
  it('parses top-level entries with their continuation lines', () => {
    const entries = parseLogEntries('# 2026-04-27\n\n- 09:14 first [a]\n  more of it\n- 10:00 second\n\n```\n- not an entry\n```\n');
    expect(entries).toEqual([
      { line: 3, text: '09:14 first [a] more of it' },
      { line: 5, text: '10:00 second' },
    ]);
  });

  it('recognises a tag and a link to an existing topic, and only those', () => {
    const topics = new Set(['feedback_testing.md', 'project_release.md']);
    expect(topicReferences('09:14 — use the real db [feedback_testing]', 'logs/2026/04/2026-04-27.md', topics)).toEqual({ topics: ['feedback_testing.md'], cleaned: '09:14 — use the real db' });
    expect(topicReferences('see [the release](project_release.md) notes', 'logs/2026/04/2026-04-27.md', topics).topics).toEqual(['project_release.md']);
    expect(topicReferences('see [the release](../../../project_release.md) notes', 'logs/2026/04/2026-04-27.md', topics).topics).toEqual(['project_release.md']);
    expect(topicReferences('a [unknown_topic] tag and [x](http://e.com/a.md)', 'logs/2026/04/2026-04-27.md', topics).topics).toEqual([]);
  });

  it('appends tagged entries to their topic as list items with the log date, once', () => {
    const log = '# 2026-04-27\n\n- 09:14 — Payout retry test uses compose Postgres [feedback_testing]\n- 10:00 — lunch with the team\n';
    const s = state({ 'feedback_testing.md': testing, 'logs/2026/04/2026-04-27.md': log });
    const first = logsToTopics(s);
    expect(first.state.files.get('feedback_testing.md')).toBe(testing + '- Payout retry test uses compose Postgres (2026-04-27)\n');
    expect(first.report.appended).toHaveLength(1);
    expect(first.report.untagged).toEqual([{ log: 'logs/2026/04/2026-04-27.md', line: 4, text: '10:00 — lunch with the team' }]);
    // The log itself is never touched.
    expect(first.state.files.get('logs/2026/04/2026-04-27.md')).toBe(log);
    // A second run adds nothing.
    const second = logsToTopics(first.state);
    expect(second.state.files).toEqual(first.state.files);
    expect(second.report.appended).toEqual([]);
  });

  it('appends no entry that would take its topic past what recall shows: it stays in the log, reported', () => {
    const fact = 'Payout retries use the compose Postgres, never a mock of the database driver.\n';
    const near = topic('Testing', 'feedback', 'd', fact.repeat(Math.floor(4000 / fact.length)));
    const log = '# 2026-04-27\n\n- 09:14 — short [feedback_testing]\n- 09:20 — a longer entry that will not fit into the topic any more at all [feedback_testing]\n- 09:30 — ok [feedback_testing]\n';
    const room = 4096 - Buffer.byteLength(near);
    expect(room).toBeGreaterThan('\n- short (2026-04-27)\n'.length);
    expect(room).toBeLessThan('\n- short (2026-04-27)\n- a longer entry that will not fit into the topic any more at all (2026-04-27)\n'.length);
    const r = logsToTopics(state({ 'feedback_testing.md': near, 'logs/2026/04/2026-04-27.md': log }));
    expect(r.state.files.get('feedback_testing.md')).toBe(near + '\n- short (2026-04-27)\n');
    expect(r.report.appended.map((a) => a.line)).toEqual([3]);
    // In order: once a topic is full, a later, shorter entry is not slipped in after it.
    expect(r.report.pastRecall).toEqual([
      { log: 'logs/2026/04/2026-04-27.md', line: 4, topic: 'feedback_testing.md' },
      { log: 'logs/2026/04/2026-04-27.md', line: 5, topic: 'feedback_testing.md' },
    ]);
    expect(r.state.files.get('logs/2026/04/2026-04-27.md')).toBe(log);
  });

  it('matches by normalised content: an item already in the topic is not added again', () => {
    const t = topic('Testing', 'feedback', 'd', '- payout retry test uses compose postgres.\n');
    const s = state({ 'feedback_testing.md': t, 'logs/2026/04/2026-04-28.md': '- 08:00 Payout retry test uses compose Postgres [feedback_testing]\n' });
    expect(logsToTopics(s).state.files.get('feedback_testing.md')).toBe(t);
  });

  it('adds a blank line before the first item when the topic ends in prose', () => {
    const t = topic('Testing', 'feedback', 'd', 'Prose paragraph.\n');
    const s = state({ 'feedback_testing.md': t, 'logs/2026/04/2026-04-28.md': '- Keep fixtures small [feedback_testing]\n' });
    expect(logsToTopics(s).state.files.get('feedback_testing.md')).toBe(t + '\n- Keep fixtures small (2026-04-28)\n');
  });

  it('reads bold time stamps and [[wiki]] tags', () => {
    const s = state({ 'feedback_testing.md': testing, 'logs/2026/04/2026-04-28.md': '- **14:02** Keep fixtures small [[feedback_testing]]\n' });
    expect(logsToTopics(s).state.files.get('feedback_testing.md')).toBe(testing + '- Keep fixtures small (2026-04-28)\n');
  });

  it('keeps a tag that stands inside the sentence: only a label before or after the words goes', () => {
    const s = state({
      'feedback_testing.md': testing,
      'logs/2026/04/2026-04-28.md': '- 09:10 moved the fixtures; see [[feedback_testing]] before adding one\n- [feedback_testing] [[feedback_testing]] Keep them small\n',
    });
    expect(logsToTopics(s).state.files.get('feedback_testing.md')).toBe(testing + '- moved the fixtures; see [[feedback_testing]] before adding one (2026-04-28)\n- Keep them small (2026-04-28)\n');
  });

  it('keeps a tag that ends the sentence before its full stop: "see [[x]]." does not become "see."', () => {
    // Claude Code 2.1.332 links memories inline with [[name]]; its session logs record lines such
    // as "< Saved a team feedback memory: [[name]]." The tag is what the sentence names, not a label.
    const s = state({
      'feedback_testing.md': testing,
      'logs/2026/04/2026-04-28.md': '- 17:00 compose Postgres must be 16.x, see [[feedback_testing]].\n- 17:05 the fixture notes are in [feedback_testing]!\n- 17:10 Keep them small. [[feedback_testing]]\n',
      'logs/2026/04/28/5f0c2a8e-flaky-tests.md': '< Saved a team feedback memory: [[feedback_testing]].\n',
    });
    expect(logsToTopics(s).state.files.get('feedback_testing.md')).toBe(
      testing + '- compose Postgres must be 16.x, see [[feedback_testing]]. (2026-04-28)\n- the fixture notes are in [feedback_testing]! (2026-04-28)\n- Keep them small. (2026-04-28)\n- Saved a team feedback memory: [[feedback_testing]]. (2026-04-28)\n',
    );
  });

  it('keeps CRLF line endings of the topic', () => {
    const t = topic('Testing', 'feedback', 'd', '- one\n').replace(/\n/g, '\r\n');
    const s = state({ 'feedback_testing.md': t, 'logs/2026/04/2026-04-28.md': '- two [feedback_testing]\n' });
    expect(logsToTopics(s).state.files.get('feedback_testing.md')).toBe(t + '- two (2026-04-28)\r\n');
  });
});
