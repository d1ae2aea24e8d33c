// What the index limit rules share: the entries the agent does not see.
import type { RuleContext } from './types.js';

/** ": not loaded: a.md, b.md and 3 more" for the entries on or after a line. */
export function hiddenEntries(ctx: RuleContext, fromLine: number): string {
  const index = ctx.memdir.parsedIndex();
  if (!index) return '';
  const keys = index.lines.filter((l) => l.entry && l.line >= fromLine).map((l) => l.entry!.key);
  if (keys.length === 0) return '';
  const shown = keys.slice(0, 5).join(', ');
  const more = keys.length > 5 ? ` and ${keys.length - 5} more` : '';
  return `; entries not loaded: ${shown}${more}`;
}
