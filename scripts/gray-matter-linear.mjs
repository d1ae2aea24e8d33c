// gray-matter tells an empty frontmatter (only comments and blank lines) from one to parse with
// `matter.replace(/^\s*#[^\n]+/gm, '')`. From every line start `\s*` runs on across the blank
// lines after it before it fails, so a frontmatter of many blank lines took time quadratic in
// their number (256 K blank lines in a description: 74 s). The build replaces that call with
// withoutYamlComments below, which gives the same string in one pass; the build stops if
// gray-matter's line ever reads differently.
import { readFileSync } from 'node:fs';

export const ORIGINAL_CALL = "file.matter.replace(/^\\s*#[^\\n]+/gm, '')";

/**
 * What `text.replace(/^\s*#[^\n]+/gm, '')` gives, in one pass: from each line start (the text's
 * start, or after \n, \r, \u2028 or \u2029) at or after the last match's end, the white space
 * that follows, then a `#` and at least one more character before the next \n, is dropped up to
 * that \n.
 */
export function withoutYamlComments(text) {
  const n = text.length;
  // For each offset, the first character at or after it that is not white space (\s).
  const solid = new Int32Array(n + 1);
  solid[n] = n;
  for (let k = n - 1; k >= 0; k--) solid[k] = /\s/.test(text[k]) ? solid[k + 1] : k;
  let out = '';
  let kept = 0;
  for (let p = 0; p < n; p++) {
    if (p < kept || (p > 0 && !/[\n\r\u2028\u2029]/.test(text[p - 1]))) continue;
    const hash = solid[p];
    if (text[hash] !== '#' || hash + 1 >= n || text[hash + 1] === '\n') continue;
    const lf = text.indexOf('\n', hash + 1);
    const end = lf < 0 ? n : lf;
    out += text.slice(kept, p);
    kept = end;
    // The next search starts at the match's end, which is a line start when the match ends with a
    // line terminator other than \n (the loop's p++ would pass it).
    p = end - 1;
  }
  return out + text.slice(kept);
}

const FUNCTION = `\n${withoutYamlComments.toString()}\n`;
const INDEX_JS = /[\\/]gray-matter[\\/]index\.js$/;

/** gray-matter's index.js with the one-pass call; throws when the call is not there as expected. */
export function linearGrayMatter(source, file = 'gray-matter/index.js') {
  const at = source.indexOf(ORIGINAL_CALL);
  if (at < 0 || source.indexOf(ORIGINAL_CALL, at + 1) >= 0) throw new Error(`${file}: the comment check is not the one scripts/gray-matter-linear.mjs replaces (gray-matter changed?)`);
  return source.replace(ORIGINAL_CALL, 'withoutYamlComments(file.matter)') + FUNCTION;
}

export const esbuildPlugin = {
  name: 'gray-matter-linear',
  setup(b) {
    b.onLoad({ filter: INDEX_JS }, (args) => ({ contents: linearGrayMatter(readFileSync(args.path, 'utf8'), args.path), loader: 'js' }));
  },
};
