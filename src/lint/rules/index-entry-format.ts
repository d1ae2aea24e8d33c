import type { Rule } from '../types.js';
import { topicMentions } from '../../content/index-mentions.js';
import { isReadmeLike } from '../../memdir/kinds.js';
import { linkDestination, pathKey } from '../../memdir/memory-index.js';

/** 1-based column of the list marker before an item's content (after any `>` of a block quote). */
function markerColumn(text: string, contentStart: number): number {
  const head = text.slice(0, contentStart);
  const m = /(?:[-*+]|\d{1,9}[.)])[ \t]*$/.exec(head);
  return m ? m.index + 1 : head.length - head.trimStart().length + 1;
}

/**
 * index-entry-format: every list item in MEMORY.md is an entry, `- [Title](file.md) — hook`. An
 * item that starts with a link to a topic in another form (ordered, a reference link, in a block
 * quote) counts as an entry everywhere else, and is asked for the canonical form here.
 * A list line without a link is memory content written into the index, which Claude Code's own
 * prompt forbids ("MEMORY.md is an index, not a memory"); the index also has no frontmatter. A
 * topic file the index names only another way (a table of file names, a back-ticked name, "see
 * SCHEMA.md") is reported here, on the line that names it: mentioned, not an entry.
 */
export const indexEntryFormat: Rule = {
  id: 'index-entry-format',
  description: 'List items in MEMORY.md are entries: `- [Title](file.md) — hook`',
  defaultSeverity: 'warn',
  fixable: false,
  appliesTo: ['index'],
  certainty: 'medium',
  docs: {
    ok: '## Feedback\n- [Testing](feedback_testing.md) — integration tests hit a real database\n',
    notOk: '## Feedback\n- Always run integration tests against the real database\n',
    notOkOutput: '2:1: List item is not an index entry: content belongs in a topic file, with `- [Title](file.md) — hook` here',
  },
  check(ctx) {
    const index = ctx.memdir.parsedIndex();
    if (!index) return;
    const first = index.lines[0];
    if (first?.kind === 'frontmatter') {
      ctx.report({ message: 'MEMORY.md has frontmatter: the index has none (it is loaded as plain text)', line: 1, column: 1 });
    }
    const topics = ctx.memdir.topics.filter((t) => !(isReadmeLike(t.rel) && !ctx.memdir.parsedTopic(t).frontmatter)).map((t) => pathKey(t.rel));
    const mentioned = new Map<number, string[]>();
    for (const [rel, line] of topicMentions(index.lines, topics)) mentioned.set(line, [...(mentioned.get(line) ?? []), rel]);
    for (const l of index.lines) {
      const names = mentioned.get(l.line);
      if (names) {
        const column = l.text.length - l.text.trimStart().length + 1;
        for (const rel of names.sort()) {
          ctx.report({ message: `${rel} is mentioned, not an entry: give it its own line, \`- [Title](${linkDestination(rel)}) — hook\`, so the agent reads it as a memory`, line: l.line, column });
        }
        continue;
      }
      if (l.kind !== 'list' && !(l.entry && !l.entry.canonical)) continue;
      const column = markerColumn(l.text, l.block.item?.contentStart ?? 0);
      const hasLink = hasInlineLink(l.text);
      ctx.report({
        message: l.entry
          ? 'Entry is not in the canonical form: write `- [Title](file.md) — hook`, a bullet, the inline link, then the hook'
          : hasLink
            ? 'List item is not an index entry: write `- [Title](file.md) — hook`, one link first, then the hook'
            : 'List item is not an index entry: content belongs in a topic file, with `- [Title](file.md) — hook` here',
        line: l.line,
        column,
      });
    }
  },
};

/**
 * Whether the text holds `[…](…)`. The innermost bracket pair is enough (a match with brackets
 * inside holds one without), and a closing parenthesis anywhere after the first `](` settles
 * the rest: written as one regex (`\[[^\]]*\]\([^)]*\)`) it rescans the line from every `[`.
 */
function hasInlineLink(text: string): boolean {
  const m = /\[[^[\]]*\]\(/.exec(text);
  return m !== null && text.indexOf(')', m.index + m[0].length) >= 0;
}
