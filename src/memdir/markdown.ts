// The Markdown parser (remark, mdast with positions): the block model's, and the tree rules may
// ask for. The bundles load it only when a file needs it (scripts/build.mjs).
import { unified, type Processor } from 'unified';
import remarkParse from 'remark-parse';
import remarkFrontmatter from 'remark-frontmatter';
import type { Root } from 'mdast';

// Emphasis and inline HTML are not read. Nothing in the block model depends on emphasis, and
// micromark's scan for them is quadratic: from every `<!--`, `<?` or `<![CDATA[` that is never
// closed, and from every `*` or `_` run, it reads on to the end of the paragraph, so 100 KB of
// `<!--` took over a minute. The one place inline HTML could matter is the link an item starts
// with: `[a <!--](x.md)-->` is a link here where CommonMark reads a comment (docs/design.md).
function withoutInlineScans(this: Processor) {
  const data = this.data();
  (data.micromarkExtensions ??= []).push({ disable: { null: ['htmlText', 'attention'] } });
}

const withFrontmatter = unified().use(remarkParse).use(withoutInlineScans).use(remarkFrontmatter, ['yaml']);
const plain = unified().use(remarkParse).use(withoutInlineScans);

// remark-frontmatter reads only frontmatter that is closed; on an unclosed `---` at the start it
// also makes the next line's list a paragraph (micromark-extension-frontmatter 2.0), so the
// extension is used only when a closing fence exists.
const OPEN_RE = /^\uFEFF?---[ \t]*(?:\r\n?|\n)/;
const CLOSE_RE = /(?:\r\n?|\n)---[ \t]*(?:\r\n?|\n|$)/;

export function parseMarkdown(text: string): Root {
  const m = OPEN_RE.exec(text);
  const closed = m !== null && CLOSE_RE.test(text.slice(m[0].length - 1));
  return (closed ? withFrontmatter : plain).parse(withNestingCapped(text)) as Root;
}

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
