// The Markdown parser (remark, mdast with positions): the block model's, and the tree rules may
// ask for. The bundles load it only when a file needs it (scripts/build.mjs).
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkFrontmatter from 'remark-frontmatter';
import type { Root } from 'mdast';

const withFrontmatter = unified().use(remarkParse).use(remarkFrontmatter, ['yaml']);
const plain = unified().use(remarkParse);

// remark-frontmatter reads only frontmatter that is closed; on an unclosed `---` at the start it
// also makes the next line's list a paragraph (micromark-extension-frontmatter 2.0), so the
// extension is used only when a closing fence exists.
const OPEN_RE = /^\uFEFF?---[ \t]*(?:\r\n?|\n)/;
const CLOSE_RE = /(?:\r\n?|\n)---[ \t]*(?:\r\n?|\n|$)/;

export function parseMarkdown(text: string): Root {
  const m = OPEN_RE.exec(text);
  const closed = m !== null && CLOSE_RE.test(text.slice(m[0].length - 1));
  return (closed ? withFrontmatter : plain).parse(text) as Root;
}
