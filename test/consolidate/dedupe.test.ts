import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bodySimilarity, dedupeTopics, duplicateGroups, type TopicInfo } from '../../src/consolidate/dedupe.js';
import { mergeTopicTexts } from '../../src/consolidate/topic-merge.js';
import { contentLines, ctx, state, topic } from './helpers.js';

describe('duplicate topics merged (step 3)', () => {
  const older = topic('Testing', 'feedback', 'Integration tests hit a real database', '- Never mock the database.\n- Use the shared fixture.\n\nWhy: the 2026-08-19 incident.\n', 'modified: 2026-09-01\n');
  const newer = topic('testing', 'feedback', 'Tests run against Postgres', '- Use the shared fixture.\n- Fresh schema per test.\n\nHow to apply: every query test.\n', 'modified: 2026-10-02\nowner: mei\n');

  it('merges the newer into the older: list items united, every line kept, modified the later', () => {
    const merged = mergeTopicTexts(older, newer);
    expect(merged).toBe(
      '---\nname: Testing\ndescription: Integration tests hit a real database\ntype: feedback\nmodified: 2026-10-02\nowner: mei\n---\n\n- Never mock the database.\n- Use the shared fixture.\n- Tests run against Postgres\n- Fresh schema per test.\n\nWhy: the 2026-08-19 incident.\n\nHow to apply: every query test.\n',
    );
    for (const line of contentLines(newer)) {
      if (/^(name|description|modified|type):/.test(line)) continue;
      expect(merged).toContain(line);
    }
  });

  it('merges a topic in Claude Code 2.1.332\'s shape (type under metadata:) with one in the older shape: each key once', () => {
    // The two shapes are mixed in one memdir (Claude Code 2.1.139 moved type, modified and
    // originSessionId under metadata:): a key the older file holds in either shape is not added again
    // in the other, and `modified` takes the later value where the older file keeps it.
    const nested = '---\nname: testing\ndescription: Integration tests hit a real database\nmetadata:\n  node_type: memory\n  type: feedback\n  modified: 2026-09-01T10:00:00.000Z\n---\n\n- Never mock the database.\n';
    const flat = '---\nname: testing\ndescription: Integration tests hit a real database\ntype: feedback\nmodified: 2026-10-02T09:00:00Z\nowner: mei\n---\n\n- Fresh schema per test.\n';
    expect(mergeTopicTexts(nested, flat)).toBe(
      '---\nname: testing\ndescription: Integration tests hit a real database\nmetadata:\n  node_type: memory\n  type: feedback\n  modified: 2026-10-02T09:00:00Z\nowner: mei\n---\n\n- Never mock the database.\n- Fresh schema per test.\n',
    );
    const newerNested = '---\nname: testing\ndescription: Integration tests hit a real database\nmetadata:\n    type: feedback\n    originSessionId: 5f0c2a8e-1b3d-4c5e-9f60-7a8b9c0d1e2f\n    modified: 2026-10-02T09:00:00.000Z\n---\n\n- Fresh schema per test.\n';
    const olderFlat = '---\nname: testing\ndescription: Integration tests hit a real database\ntype: feedback\nmodified: 2026-09-01\n---\n\n- Never mock the database.\n';
    expect(mergeTopicTexts(olderFlat, newerNested)).toBe(
      '---\nname: testing\ndescription: Integration tests hit a real database\ntype: feedback\nmodified: 2026-10-02T09:00:00.000Z\nmetadata:\n  originSessionId: 5f0c2a8e-1b3d-4c5e-9f60-7a8b9c0d1e2f\n---\n\n- Never mock the database.\n- Fresh schema per test.\n',
    );
    // Both nested: the newer's other metadata keys join the older's block.
    const older2 = '---\nname: testing\ndescription: d\nmetadata:\n  type: feedback\n  modified: 2026-09-01T10:00:00.000Z\nowner: mei\n---\n\n- One.\n';
    const newer2 = '---\nname: testing\ndescription: d\nmetadata:\n  type: feedback\n  originSessionId: abc\n  modified: 2026-08-01T10:00:00.000Z\n---\n\n- Two.\n';
    expect(mergeTopicTexts(older2, newer2)).toBe('---\nname: testing\ndescription: d\nmetadata:\n  type: feedback\n  modified: 2026-09-01T10:00:00.000Z\n  originSessionId: abc\nowner: mei\n---\n\n- One.\n- Two.\n');
  });

  it('merges topics with the same name into the older file and archives the other with its entry', () => {
    const s = state({
      'MEMORY.md': '- [Testing](feedback_testing.md) — real db\n- [Testing 2](feedback_testing_2.md) — postgres\n',
      'feedback_testing.md': older,
      'feedback_testing_2.md': newer,
    });
    // feedback_testing_2.md was committed first: it is the older one.
    const c = ctx({}, { firstCommitTimes: () => new Map([['feedback_testing_2.md', 1000], ['feedback_testing.md', 2000]]) });
    const r = dedupeTopics(s, c);
    expect(r.report.merged).toEqual([{ into: 'feedback_testing_2.md', from: 'feedback_testing.md', why: 'name', archivedAs: 'feedback_testing.md' }]);
    expect(r.state.files.has('feedback_testing.md')).toBe(false);
    expect(r.state.archive.get('feedback_testing.md')).toBe(older);
    expect(r.state.moves).toEqual([{ from: 'feedback_testing.md', to: 'feedback_testing.md' }]);
    expect(r.state.files.get('MEMORY.md')).toBe('- [Testing 2](feedback_testing_2.md) — postgres\n');
    expect(r.state.archive.get('ARCHIVE.md')).toContain('- [Testing](feedback_testing.md) — real db (archived on 2026-11-29: merged into feedback_testing_2.md)');
    expect(r.state.files.get('feedback_testing_2.md')).toContain('- Never mock the database.');
  });

  it('merges nearly identical bodies of the same type, not of different types', () => {
    const body = '- one fact\n- two facts\n- three facts\n- four facts\n- five facts\n';
    const a = topic('A', 'project', 'a', body);
    const b = topic('B', 'project', 'b', body + '- six facts\n');
    const c = topic('C', 'user', 'c', body);
    const r = dedupeTopics(state({ 'a.md': a, 'b.md': b, 'c.md': c }), ctx());
    expect(r.report.merged.map((m) => [m.into, m.from, m.why])).toEqual([['a.md', 'b.md', 'body']]);
    expect(r.state.files.get('a.md')).toContain('- six facts');
    expect(r.state.files.has('c.md')).toBe(true);
  });

  it('picks a free archive name when the archive already holds one', () => {
    const s = state({ 'a.md': topic('Same', 'user', 'x', 'one\n'), 'b.md': topic('Same', 'user', 'y', 'one\ntwo\n') });
    const r = dedupeTopics(s, ctx({ archivePaths: new Set(['b.md']) }));
    expect(r.report.merged[0]!.archivedAs).toBe('b-2.md');
  });

  it('never merges on a name alone, nor on a name YAML cut at " #"', () => {
    const s = state({
      'story_12.md': '---\nname: Story #12 guest checkout\ndescription: The guest checkout story\ntype: project\n---\n- Guests pay without an account.\n',
      'story_34.md': '---\nname: Story #34 refunds\ndescription: The refunds story\ntype: project\n---\n- Refunds go back to the card.\n',
      'a.md': topic('Deploys', 'project', 'how we deploy', '- Blue-green on Fridays.\n'),
      'b.md': topic('Deploys', 'project', 'the deploy freeze', '- No deploys during the audit.\n'),
    });
    const r = dedupeTopics(s, ctx());
    expect(r.report.merged).toEqual([]);
    expect(r.state).toBe(s);
  });

  it('never counts the "## From the index" heading memlint writes as a line two memories share', () => {
    // Two memories named alike, each given a hook moved out of the index: the heading is in both,
    // their content is not (a fast-check counterexample: the second run merged them).
    const a = topic('One', 'feedback', 'alpha alpha', '\n## From the index\n\nledger review before payouts\n');
    const b = topic('One', 'feedback', 'alpha beta', '\n## From the index\n\nschema changes need a migration\n');
    const r = dedupeTopics(state({ 'a.md': a, 'b.md': b }), ctx());
    expect(r.report.merged).toEqual([]);
    expect(r.state.files.get('b.md')).toBe(b);
  });

  it('never merges a memory into README.md, nor README.md away', () => {
    const body = '- one fact\n- two facts\n- three facts\n';
    const s = state({ 'README.md': topic('Plan', 'project', 'the plan', body), 'project_plan.md': topic('Plan', 'project', 'the plan', body) });
    expect(dedupeTopics(s, ctx()).report.merged).toEqual([]);
  });

  it('similarity is shared lines over all lines', () => {
    expect(bodySimilarity(new Set(['a', 'b']), new Set(['a', 'b']))).toBe(1);
    expect(bodySimilarity(new Set(['a', 'b']), new Set(['c']))).toBe(0);
    expect(bodySimilarity(new Set(['a', 'b', 'c']), new Set(['a', 'b', 'd']))).toBe(0.5);
  });

  it('changes nothing without duplicates', () => {
    const s = state({ 'a.md': topic('A', 'user', 'x', 'one\n'), 'b.md': topic('B', 'user', 'y', 'two\n') });
    const r = dedupeTopics(s, ctx());
    expect(r.state).toBe(s);
  });
});

describe('duplicateGroups: candidate pairs, not every pair', () => {
  it('groups what comparing every topic with every other groups: names, descriptions, near-duplicate bodies, types (property)', () => {
    const line = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n', 'o');
    const info = fc.record({
      name: fc.constantFrom(undefined, 'x', 'y', 'z'),
      type: fc.constantFrom(undefined, 'project', 'feedback', 'undefined'),
      description: fc.constantFrom(undefined, 'd1', 'd2'),
      lines: fc.uniqueArray(line, { maxLength: 12 }).map((ls) => new Set(ls)),
    });
    fc.assert(
      fc.property(fc.array(info, { maxLength: 14 }), fc.array(fc.nat({ max: 13 }), { maxLength: 6 }), (infos, copies) => {
        // Near-copies of some bodies (one line changed or added), so that the ratio is met often.
        const all: TopicInfo[] = infos.map((t, i) => ({ ...t, rel: `t${i}.md` }));
        copies.forEach((k, c) => {
          const from = all[k % Math.max(all.length, 1)];
          if (from) all.push({ ...from, rel: `copy${c}.md`, name: undefined, lines: new Set([...from.lines, `extra${c}`]) });
        });
        expect(duplicateGroups(all)).toEqual(duplicateGroups(all, true));
      }),
      { numRuns: 3000 },
    );
  });
});
