// The cap on how deep one line nests containers: what the parse reads of a line past it is text
// (markdown.ts), and the line path reads no text the cap changes (blocks.ts).

/** How many containers (quotes, list items) one line may open before the rest of it reads as text. */
export const MAX_NESTING = 32;

/**
 * The text with every line's containers past MAX_NESTING read as text: the marker that would open
 * the next one becomes an `x` (one UTF-16 unit for one, so every position stays). remark builds a
 * node and several tokens for each level, so a line of a million `>` took a minute and 3 GB; no
 * memory nests 32 quotes or lists deep. A text that nests less is returned as it is.
 */
export function withNestingCapped(text: string): string {
  let out: string[] | null = null;
  let from = 0;
  for (let start = 0; start < text.length; ) {
    const lf = text.indexOf('\n', start);
    const end = lf < 0 ? text.length : lf;
    const cut = markerPastCap(text, start, end);
    if (cut >= 0) {
      (out ??= []).push(text.slice(from, cut), 'x');
      from = cut + 1;
    }
    start = end + 1;
  }
  return out ? out.join('') + text.slice(from) : text;
}

/** Where, in the line [start, end), the marker of container MAX_NESTING + 1 stands, else -1. */
function markerPastCap(text: string, start: number, end: number): number {
  let depth = 0;
  let i = start;
  while (i < end) {
    while (i < end && (text[i] === ' ' || text[i] === '\t')) i++;
    const c = text[i];
    let next = -1;
    if (c === '>') next = i + 1;
    else if ((c === '-' || c === '*' || c === '+') && (text[i + 1] === ' ' || text[i + 1] === '\t')) next = i + 1;
    else {
      let d = i;
      while (d < end && d - i < 9 && text.charCodeAt(d) >= 0x30 && text.charCodeAt(d) <= 0x39) d++;
      if (d > i && (text[d] === '.' || text[d] === ')') && (text[d + 1] === ' ' || text[d + 1] === '\t')) next = d + 1;
    }
    if (next < 0) return -1;
    if (++depth > MAX_NESTING) return next - 1;
    i = next;
  }
  return -1;
}
