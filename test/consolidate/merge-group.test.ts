// A group of duplicate topics merged into one: mergeTopicGroup reads the kept topic once, and must
// give what merging the others into it one at a time gives (mergeTopicTexts of each result and the
// next), on generated topics of every frontmatter and body shape and line ending.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeTopicGroup, mergeTopicTexts } from '../../src/consolidate/topic-merge.js';
import { blockModel } from '../../src/memdir/blocks.js';
import { parseTopic } from '../../src/memdir/topic.js';

const yamlLine = fc.constantFrom(
  'name: Testing',
  'name: testing',
  'description: how we test',
  'description: a second description',
  'type: feedback',
  'type: project',
  'modified: 2026-01-01T10:00:00.000Z',
  'modified: 2026-03-01T10:00:00.000Z',
  'owner: mei',
  'metadata:\n  type: feedback\n  modified: 2026-02-01T10:00:00.000Z',
  'metadata:\n  originSessionId: abc',
  'tags:\n  - a\n  - b',
  '# a comment',
);
const bodyLine = fc.constantFrom('', '  ', '- One.', '- Two.', '- One', '* three', '  continued', '    indented', 'Prose line.', '**Why:** because.', '**How to apply:** always.', '## Heading', '1. first', '- [x] done', '```', 'code()');
const frontmatter = fc.oneof(
  fc.constant(null),
  fc.array(yamlLine, { maxLength: 5 }).map((ls) => ({ yaml: ls.join('\n'), closed: true })),
  fc.array(yamlLine, { maxLength: 3 }).map((ls) => ({ yaml: ls.join('\n'), closed: false })),
);
const topic = fc
  .tuple(frontmatter, fc.array(bodyLine, { maxLength: 10 }), fc.constantFrom('\n', '\r\n', '\r'), fc.boolean(), fc.boolean())
  .map(([fm, body, eol, bom, final]) => {
    const lines = [...(fm ? ['---', ...fm.yaml.split('\n').filter((l) => l !== ''), ...(fm.closed ? ['---'] : [])] : []), ...body];
    const text = lines.join(eol) + (final ? eol : '');
    return (bom ? '\uFEFF' : '') + text;
  });

describe('merging a group of duplicates', () => {
  it('gives what merging them one at a time gives', () => {
    fc.assert(
      fc.property(topic, fc.array(topic, { minLength: 1, maxLength: 6 }), (into, others) => {
        const oneAtATime = others.reduce((acc, t) => mergeTopicTexts(acc, t), into);
        expect(mergeTopicGroup(into, others)).toBe(oneAtATime);
      }),
      { numRuns: 5000 },
    );
  });

  it('keeps each fenced block whole: its code stays in its fences, and no fence is left open', () => {
    // The deploy topics of a user's trial: the newer's command joined the prose, or the fence line
    // both blocks share was taken once and the rest of the file became code.
    const older = '---\nname: Deploy\ntype: project\n---\nDeploy goes through the gateway.\n\n```\nmake deploy\n```\n\n## Rollback\nAsk ops first.\n';
    const newer = '---\nname: Deploy\ntype: project\n---\nDeploy goes through the gateway.\n\n```\nmake deploy-v2\n```\n\n## Rollback\nAsk ops first.\n- Page the on-call.\n';
    const merged = mergeTopicTexts(older, newer);
    expect(merged).toBe('---\nname: Deploy\ntype: project\n---\nDeploy goes through the gateway.\n\n```\nmake deploy\n```\n\n## Rollback\nAsk ops first.\n\n- Page the on-call.\n\n```\nmake deploy-v2\n```\n');
    const plain = '---\nname: Deploy\ntype: project\n---\nDeploy goes through the gateway.\n';
    const coded = '---\nname: Deploy\ntype: project\n---\nDeploy goes through the gateway.\n```\nmake deploy\n```\n- Ask ops first.\n';
    expect(mergeTopicTexts(plain, coded)).toBe('---\nname: Deploy\ntype: project\n---\nDeploy goes through the gateway.\n\n- Ask ops first.\n\n```\nmake deploy\n```\n');
    // An item is never placed in a block whose code looks like a list.
    expect(mergeTopicTexts('```\n- not an item\n```\n', '- an item\n')).toBe('```\n- not an item\n```\n\n- an item\n');
  });

  it('every closed fenced block of either topic is a fenced block of the merge (property)', () => {
    // The block model keeps a lone CR inside a code line: compared with every line ending one.
    const oneEol = (s: string) => s.replace(/\r\n?/g, '\n');
    const blocks = (text: string) =>
      blockModel(text)
        .codeBlocks.filter((c) => c.fenced)
        .map((c) => oneEol(c.content.join('\n')));
    fc.assert(
      fc.property(topic, topic, (older, newer) => {
        const merged = mergeTopicTexts(older, newer);
        const closed = (text: string) => {
          const body = parseTopic(text).body;
          const lines = body.split(/\r\n|\r|\n/);
          return blockModel(body).codeBlocks.filter((c) => c.fenced && c.endLine > c.startLine && /^```\s*$/.test(lines[c.endLine - 1] ?? '') && blockModel(body).lines[c.startLine - 1]?.quote === 0);
        };
        const have = new Set(blocks(merged));
        for (const c of [...closed(older), ...closed(newer)]) expect(have.has(oneEol(c.content.join('\n')))).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('merges a thousand topics that add a line each, and hundreds that add items and prose', () => {
    const topicN = (i: number) => `---\nname: dup\ndescription: the same\ntype: project\n---\n- fact one\n- fact two\n- only in ${i}\n\n**Why:** x.\n`;
    const others = Array.from({ length: 1000 }, (_, i) => topicN(i + 1));
    const merged = mergeTopicGroup(topicN(0), others);
    expect(merged).toBe(others.reduce((acc, t) => mergeTopicTexts(acc, t), topicN(0)));
    expect(merged.match(/- only in \d+/g)).toHaveLength(1001);
    // Each adding an item, an indented line and a line of prose: the list and the prose after it both grow.
    const mixed = (i: number) => `---\nname: dup\ntype: project\n---\n- fact one\n- only in ${i}\n  more on ${i}\nProse of ${i}.\n`;
    const rest = Array.from({ length: 300 }, (_, i) => mixed(i + 1));
    expect(mergeTopicGroup(mixed(0), rest)).toBe(rest.reduce((acc, t) => mergeTopicTexts(acc, t), mixed(0)));
  });
});
