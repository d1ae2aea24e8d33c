import type { Rule } from '../types.js';

/**
 * no-conflict-markers: no merge conflict markers left in memory. Markers in Markdown break no
 * build, so they get committed, and then the agent reads both sides as memory. A marker is a run
 * of at least the file's conflict marker size (git's `conflict-marker-size` attribute, 7 when
 * unset or outside a repository), as git and the merge driver write them. A separator (`=======`)
 * left alone after a conflict was settled by hand is one too (see `leftAlone`).
 */
export const noConflictMarkers: Rule = {
  id: 'no-conflict-markers',
  description: 'No merge conflict markers',
  defaultSeverity: 'error',
  fixable: false,
  appliesTo: ['index', 'topic', 'log'],
  certainty: 'high',
  docs: {
    ok: '- [Testing](feedback_testing.md) — integration tests hit a real database\n',
    notOk: '<<<<<<< ours\n- [Testing](feedback_testing.md) — real database\n=======\n- [Testing](feedback_testing.md) — mocks are fine\n>>>>>>> theirs\n',
    notOkOutput: '1:1: Merge conflict left unresolved (lines 1-5): run `memlint resolve` or settle it by hand',
  },
  check(ctx) {
    // git asked only where a marker could be: a line opening with a run of '<' (any size), a
    // seven-character run of the default size, or a line of '=' alone. A lone short '>' or '|' run
    // is a block quote or a table row far more often than a stray marker.
    if (!/^(?:<+(?: |$)|>{7}|\|{7}|=+\r?$)/m.test(ctx.file.text)) return;
    const size = ctx.repo?.conflictMarkerSize(ctx.file) ?? 7;
    const marker = (c: string) => new RegExp(`^${c}{${size},}(?: |$)`);
    const [opens, closes, base] = [marker('<'), marker('>'), marker('\\|')];
    // git writes the separator as exactly the marker size, alone on its line.
    const separator = new RegExp(`^={${size}}$`);
    const lines = ctx.lines();
    // The closing marker after each line, found in one pass from the end (a search per opener
    // was quadratic in a file of openers).
    const nextClose: number[] = new Array(lines.length + 1).fill(-1);
    for (let i = lines.length - 1; i >= 0; i--) nextClose[i] = closes.test(lines[i]!) ? i : nextClose[i + 1]!;
    let open = 0;
    lines.forEach((text, i) => {
      if (opens.test(text)) {
        open = i + 1;
        const end = nextClose[i + 1]!;
        ctx.report({
          message: `Merge conflict left unresolved${end > 0 ? ` (lines ${i + 1}-${end + 1})` : ''}: run \`memlint resolve\` or settle it by hand`,
          line: i + 1,
          column: 1,
        });
      } else if (closes.test(text)) {
        if (open === 0) ctx.report({ message: 'Stray merge conflict marker: delete the line by hand', line: i + 1, column: 1 });
        open = 0;
      } else if (base.test(text) && open === 0) {
        ctx.report({ message: 'Stray merge conflict marker: delete the line by hand', line: i + 1, column: 1 });
      } else if (open === 0 && separator.test(text) && leftAlone(ctx.blocks().lines[i]?.kind, lines[i - 1] ?? '')) {
        ctx.report({ message: 'Stray merge conflict marker (a separator left without its conflict): delete the line by hand', line: i + 1, column: 1 });
      }
    });
  },
};

/**
 * A separator left after the other markers were deleted by hand. Markdown reads it as text after an
 * entry or a list item, and as a heading's underline after a paragraph: there it is one only under
 * a line that ends a sentence, as the last line of a side does and a title does not. In code it is
 * code.
 */
function leftAlone(kind: string | undefined, before: string): boolean {
  return kind === 'prose' || (kind === 'heading' && /[.!?。！？]\s*$/u.test(before));
}
