// Rewrite a JSON file from one value to another with surgical edits (jsonc-parser's modify): only
// the properties and list items that differ are rewritten, so the rest of the file keeps its own
// layout, and an edit undone gives back the bytes it started from. (jsonc-parser formats the lines
// an edit touches: a list or object written on one line that memlint edits becomes multi-line.)
// The ESM build: the package's main (UMD) requires its modules at run time, which the bundle cannot.
import { applyEdits, modify, type JSONPath } from 'jsonc-parser/lib/esm/main.js';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Indices of `before` that `after` drops, when `after` is `before` with some items taken out (else null). */
function dropped(before: unknown[], after: unknown[]): number[] | null {
  const out: number[] = [];
  let j = 0;
  for (let i = 0; i < before.length; i++) {
    if (j < after.length && same(before[i], after[j])) j++;
    else out.push(i);
  }
  return j === after.length ? out : null;
}

/** `text` (whose value is `before`) edited so that its value is `after`. */
export function rewriteJson(text: string, before: unknown, after: unknown): string {
  if (text.charCodeAt(0) === 0xfeff) return `\ufeff${rewriteJson(text.slice(1), before, after)}`;
  const indent = /\n([ \t]+)"/.exec(text)?.[1] ?? '  ';
  const formattingOptions = { insertSpaces: !indent.includes('\t'), tabSize: indent.includes('\t') ? 1 : indent.length, eol: /\r\n/.test(text) ? '\r\n' : '\n' };
  let out = text;
  const edit = (path: JSONPath, value: unknown, isArrayInsertion = false) => {
    out = applyEdits(out, modify(out, path, value, { formattingOptions, isArrayInsertion }));
  };
  const walk = (path: JSONPath, b: unknown, a: unknown): void => {
    if (same(b, a)) return;
    if (isRecord(b) && isRecord(a)) {
      for (const k of Object.keys(b)) if (!Object.hasOwn(a, k)) edit([...path, k], undefined);
      for (const [k, v] of Object.entries(a)) {
        if (Object.hasOwn(b, k)) walk([...path, k], b[k], v);
        else edit([...path, k], v);
      }
      return;
    }
    if (Array.isArray(b) && Array.isArray(a)) {
      if (a.length >= b.length) {
        for (let i = 0; i < b.length; i++) walk([...path, i], b[i], a[i]);
        for (let i = b.length; i < a.length; i++) edit([...path, i], a[i], true);
        return;
      }
      const gone = dropped(b, a);
      if (gone) {
        for (const i of gone.reverse()) edit([...path, i], undefined);
        return;
      }
    }
    edit(path, a);
  };
  walk([], before, after);
  return out;
}
