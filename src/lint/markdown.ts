// The Markdown parser, loaded only when an enabled rule needs document structure.
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkFrontmatter from 'remark-frontmatter';
import type { Root } from 'mdast';

const processor = unified().use(remarkParse).use(remarkFrontmatter, ['yaml']);

export function parseMarkdown(text: string): Root {
  return processor.parse(text) as Root;
}
