// Rewrite a JSON file from one value to another with surgical edits (jsonc-parser's modify): only
// the properties and list items that differ are rewritten, so the rest of the file keeps its own
// layout, and an edit undone gives back the bytes it started from. jsonc-parser formats the lines
// an edit touches, which would spread an object or list written on one line over several: inside
// such a one-line container the edit is made here instead, in the container's own spacing.
// The ESM build: the package's main (UMD) requires its modules at run time, which the bundle cannot.
import { bomOf, withoutBom } from '../memdir/lines.js';
import { applyEdits, findNodeAtLocation, modify, parseTree, type Edit, type JSONPath, type Node } from 'jsonc-parser/lib/esm/main.js';

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
  if (bomOf(text)) return `${bomOf(text)}${rewriteJson(withoutBom(text), before, after)}`;
  const indent = /\n([ \t]+)"/.exec(text)?.[1] ?? '  ';
  const formattingOptions = { insertSpaces: !indent.includes('\t'), tabSize: indent.includes('\t') ? 1 : indent.length, eol: /\r\n/.test(text) ? '\r\n' : '\n' };
  let out = text;
  const edit = (path: JSONPath, value: unknown, isArrayInsertion = false) => {
    out = applyEdits(out, containerEdit(out, path, value, isArrayInsertion, indent, formattingOptions.eol) ?? modify(out, path, value, { formattingOptions, isArrayInsertion }));
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

const end = (n: Node) => n.offset + n.length;

/**
 * The edit that sets `path` to `value` (undefined: removes it) where jsonc-parser's would re-format
 * a line it should not: inside an object or list written on one line (the new text goes in with
 * the separator and colon spacing the container already uses, and a removal takes out exactly one
 * separator and the item), or an item appended to a multi-line one. null: jsonc-parser's edit.
 */
function containerEdit(text: string, path: JSONPath, value: unknown, isArrayInsertion: boolean, unit: string, eol: string): Edit[] | null {
  const root = parseTree(text);
  if (!root) return null;
  // The deepest container on the path that exists: a missing level is inserted whole.
  let depth = path.length - 1;
  let container = findNodeAtLocation(root, path.slice(0, depth));
  while (!container && depth > 0) container = findNodeAtLocation(root, path.slice(0, --depth));
  if (!container || (container.type !== 'object' && container.type !== 'array')) return null;
  const oneLine = !/[\r\n]/.test(text.slice(container.offset, end(container)));
  const key = path[depth]!;
  if (value !== undefined) for (let i = path.length - 1; i > depth; i--) value = typeof path[i] === 'number' ? [value] : { [path[i]!]: value };
  const items = container.children ?? [];
  const at = container.type === 'object' ? items.findIndex((p) => p.children?.[0]?.value === key) : isArrayInsertion ? -1 : (key as number) < items.length ? (key as number) : -1;
  if (value === undefined) {
    if (at < 0 || depth < path.length - 1) return [];
    // One separator and the item: the lines around stay as they are (an item appended on its own
    // line goes with its line break). The only item of a multi-line container: jsonc-parser's.
    const item = items[at]!;
    if (at > 0) return [{ offset: end(items[at - 1]!), length: end(item) - end(items[at - 1]!), content: '' }];
    if (items.length > 1) return [{ offset: item.offset, length: items[1]!.offset - item.offset, content: '' }];
    return oneLine ? [{ offset: item.offset, length: item.length, content: '' }] : null;
  }
  if (!oneLine) return at < 0 ? appendedOnItsOwnLine(text, container, key, value, unit, eol) : null;
  const json = JSON.stringify(value);
  if (at >= 0) {
    const target = container.type === 'object' ? items[at]!.children![1]! : items[at]!;
    return [{ offset: target.offset, length: target.length, content: json }];
  }
  // Spacing taken from the container: after a comma as between its first two items (else as
  // before its first), and around a property's colon as in its first property.
  const first = items[0];
  const gap = items.length > 1 ? text.slice(end(first!), items[1]!.offset).replace(',', '') : first ? text.slice(container.offset + 1, first.offset) : '';
  const colon = container.type === 'object' && first?.children?.[1] ? text.slice(end(first.children[0]!), first.children[1].offset) : ': ';
  const content = container.type === 'object' ? `${JSON.stringify(key)}${colon}${json}` : json;
  const index = container.type === 'array' && typeof key === 'number' ? Math.min(key, items.length) : items.length;
  if (items.length === 0) return [{ offset: container.offset + 1, length: 0, content }];
  if (index === 0) return [{ offset: first!.offset, length: 0, content: `${content},${gap}` }];
  return [{ offset: end(items[index - 1]!), length: 0, content: `,${gap}${content}` }];
}

/**
 * An item added at the end of a container written over several lines, on a line of its own with
 * the last item's indentation, the line before left as it is (jsonc-parser would re-format it: a
 * one-line object there spread out); removing it later takes out exactly what this added. null
 * when the last item does not start its own line, or the item does not go at the end.
 */
function appendedOnItsOwnLine(text: string, container: Node, key: string | number, value: unknown, unit: string, eol: string): Edit[] | null {
  const items = container.children ?? [];
  const last = items[items.length - 1];
  if (!last || (container.type === 'array' && typeof key === 'number' && key < items.length)) return null;
  const lineStart = Math.max(text.lastIndexOf('\n', last.offset - 1), text.lastIndexOf('\r', last.offset - 1)) + 1;
  const indent = text.slice(lineStart, last.offset);
  if (!/^[ \t]*$/.test(indent)) return null;
  const json = JSON.stringify(value, null, unit).split('\n').join(`${eol}${indent}`);
  const colon = container.type === 'object' && last.children?.[1] ? text.slice(end(last.children[0]!), last.children[1].offset) : ': ';
  const content = container.type === 'object' ? `${JSON.stringify(key)}${colon}${json}` : json;
  return [{ offset: end(last), length: 0, content: `,${eol}${indent}${content}` }];
}
