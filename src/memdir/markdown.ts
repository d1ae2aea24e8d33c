// The Markdown parser (remark, mdast with positions): the block model's, and the tree rules may
// ask for. The bundles load it only when a file needs it (scripts/build.mjs).
import { unified, type Processor } from 'unified';
import remarkParse from 'remark-parse';
import remarkFrontmatter from 'remark-frontmatter';
import type { Root } from 'mdast';
import { withNestingCapped } from './nesting.js';

export { MAX_NESTING, withNestingCapped } from './nesting.js';

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
