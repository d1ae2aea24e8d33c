// Lossless model of MEMORY.md: serializeIndex(parseIndex(x)) === x, byte for byte.
// Every line is kept with its own line ending; entries are recognised, never rewritten. Which
// line is what (an entry, code, a heading) is the block model's word (blocks.ts).
import { blockModel, type BlockItem, type BlockLine, type BlockModel } from './blocks.js';
import { bomOf, splitLines } from './lines.js';

export type IndexLineKind =
  | 'entry' // a list item whose first content is a link to a topic: - [Title](file.md) — hook
  | 'list' // a list item that is not an entry (content written into the index)
  | 'heading'
  | 'blank'
  | 'html' // a line of an HTML block (a block comment among them)
  | 'code' // a line of a code block, fenced or indented
  | 'frontmatter'
  | 'definition' // a link reference definition: [label]: file.md
  | 'other';

export interface IndexEntry {
  /** Whether the line is the canonical `- [Title](file.md) — hook` (else index-entry-format asks for it). */
  canonical: boolean;
  /** What stands before the link: the indentation of a canonical entry, else all of it (`> 1. `). */
  indent: string;
  /** `-`, `*`, `+`, or an ordered item's marker (`1.`, `2)`). */
  bullet: string;
  title: string;
  /** The link target exactly as written. */
  target: string;
  /** Normalised target: the identity of the entry (merge key, duplicate key). */
  key: string;
  /** The text between the link and the hook, e.g. " — ", ": ", " - ", or "" when there is no hook. */
  separator: string;
  hook: string;
  /** Offset (UTF-16) of the hook within the line text, or -1 when there is none. */
  hookStart: number;
  /** Offset (UTF-16) in the line of the target as written (of the whole link, for a reference). */
  targetStart: number;
}

export interface IndexLine {
  /** 1-based line number. */
  line: number;
  /** Line text without its line ending. */
  text: string;
  /** '\n', '\r\n', '\r' or '' (last line without a final newline). */
  eol: string;
  /** UTF-16 offset of the line's first character in the whole text (BOM included). */
  offset: number;
  kind: IndexLineKind;
  entry?: IndexEntry;
  /** What the block model says of the line (its heading, its list item). */
  block: BlockLine;
}

export interface ParsedIndex {
  bom: string;
  lines: IndexLine[];
}

// Bullet, link, then an optional separator and hook. The separator alternatives are the ones
// seen in Claude Code's template (em dash) and in hand-written indexes (en dash, " - ", " -- "
// for an em dash typed in ASCII, ":"). A ";" after the link (the eleventh held-out set's indexes) is
// read as the separator of a non-canonical entry (TAIL_RE): its hook is what follows it, and
// index-entry-format still asks for the canonical form.
// A title may hold balanced brackets ("[WIP]"), as CommonMark link text may.
// ENTRY_RE and TAIL_RE are matched against text without its trailing whitespace (trimEnd,
// linear): a lazy hook followed by `\s*$` rescans a long run of spaces at every step.
const ENTRY_RE =
  /^(\s*)([-*+])[ \t]+\[((?:\\.|[^[\]\\]|\[(?:\\.|[^[\]\\])*\])*)\]\(\s*(<[^>]*>|[^\s()]+(?:\([^\s()]*\)[^\s()]*)*)(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)(?:(\s*[—–]\s*|\s+--?(?:\s+|$)|\s*:\s*)(.*))?$/;
/** A separator at the end of an entry's head (the text before its hook), with the space around it. */
export const TRAILING_SEPARATOR = /\s*(?:[—–]|--?|[:;])?\s*$/;
// The link of a non-canonical entry, from where the block model says it starts: its target as
// written, then what follows it.
const LINK_RE = /^\[(?:\\.|[^[\]\\]|\[(?:\\.|[^[\]\\])*\])*\]\(\s*(<[^>]*>|[^\s()]+(?:\([^\s()]*\)[^\s()]*)*)/;
// Applied to the rest of the line with its trailing space cut first (no lazy match before `\s*$`).
const TAIL_RE = /^(\s*[—–]\s*|\s+--?\s+|\s*[:;]\s*|\s*)(.*)$/;



/**
 * A topic's relative path as an inline link's destination that reads back as that path (here and in
 * CommonMark): in angle brackets when it holds whitespace, a parenthesis or `<`/`>`, and with `%`
 * escaped when the name holds what would otherwise decode (a literal "%20" is not a space).
 */
export function linkDestination(rel: string): string {
  const t = /%[0-9A-Fa-f]{2}/.test(rel) ? rel.replace(/%/g, '%25') : rel;
  return /[\s()<>]/.test(t) ? `<${t}>` : t;
}

/** The identity of a link target: what two entries share when they point at the same topic. */
export function normalizeTarget(target: string): string {
  let t = target.trim();
  if (t.startsWith('<') && t.endsWith('>')) t = t.slice(1, -1);
  const hash = t.indexOf('#');
  if (hash >= 0) t = t.slice(0, hash);
  try {
    t = decodeURI(t);
  } catch {
    // keep the raw text when it is not valid percent-encoding
  }
  t = t.replace(/\\/g, '/');
  const parts: string[] = [];
  for (const part of t.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..' && parts.length > 0 && parts[parts.length - 1] !== '..') parts.pop();
    else parts.push(part);
  }
  return parts.join('/').normalize('NFC');
}

/**
 * A memory file's own path (memdir-relative) as the key of the entries that link to it: what
 * normalizeTarget reads from its link. The path is the file's name as it is, so nothing in it is
 * decoded or cut (a file named `a%20b.md` or `c#1.md` is that file).
 */
export function pathKey(rel: string): string {
  return rel.replace(/\\/g, '/').normalize('NFC');
}

/**
 * What makes an entry itself when two versions of an index meet (the merge): its file, and the
 * section when the link names one. Two sections of one file are two entries there, though the
 * linter still asks for one entry per topic file (index-duplicate).
 */
export function entryIdentity(entry: Pick<IndexEntry, 'key' | 'target'>): string {
  let t = entry.target.trim();
  if (t.startsWith('<') && t.endsWith('>')) t = t.slice(1, -1);
  const hash = t.indexOf('#');
  if (hash < 0) return entry.key;
  let fragment = t.slice(hash + 1);
  try {
    fragment = decodeURIComponent(fragment);
  } catch {
    // keep the raw text when it is not valid percent-encoding
  }
  return fragment === '' ? entry.key : `${entry.key}#${fragment.normalize('NFC')}`;
}

export function parseEntry(text: string): IndexEntry | undefined {
  const m = ENTRY_RE.exec(text.trimEnd());
  if (!m) return undefined;
  const [, indent, bullet, title, target, sep, hook] = m;
  const hasHook = sep !== undefined && hook !== undefined && hook.length > 0;
  const separator = sep ?? '';
  return {
    canonical: true,
    indent: indent!,
    bullet: bullet!,
    title: title!,
    target: target!,
    key: normalizeTarget(target!),
    separator,
    hook: hasHook ? hook! : '',
    hookStart: hasHook ? text.trimEnd().length - hook!.length : -1,
    // The target follows `[title](`; found from the parsed title, since a title may hold `](`.
    targetStart: text.indexOf('[') + title!.length + 3,
  };
}

/** A list item that starts with a link but is not written canonically: an entry still, when it links to a .md file. */
function otherEntry(text: string, item: BlockItem): IndexEntry | undefined {
  const link = item.link!;
  const inline = link.form === 'inline' ? LINK_RE.exec(text.slice(link.start)) : null;
  const target = inline ? inline[1]! : link.url;
  const key = normalizeTarget(target);
  if (!key.toLowerCase().endsWith('.md')) return undefined;
  const rest = text.slice(link.end).trimEnd();
  const [, sep, hook] = TAIL_RE.exec(rest)!;
  const marker = /(?:[-*+]|\d{1,9}[.)])[ \t]*$/.exec(text.slice(0, item.contentStart))?.[0].trimEnd() ?? '';
  return {
    canonical: false,
    indent: text.slice(0, item.contentStart),
    bullet: marker,
    title: text.slice(link.textStart, link.textEnd),
    target,
    key,
    separator: hook ? sep! : '',
    hook: hook ?? '',
    hookStart: hook ? text.trimEnd().length - hook.length : -1,
    targetStart: link.form === 'inline' ? link.textEnd + 2 : link.start,
  };
}

/**
 * MEMORY.md as lines, each with its kind from the block model (computed here when not given):
 * what CommonMark reads as code, HTML or frontmatter is never an entry.
 */
export function parseIndex(text: string, blocks: BlockModel = blockModel(text), entryOf: (line: string) => IndexEntry | undefined = parseEntry): ParsedIndex {
  const bom = bomOf(text);
  const raw = splitLines(text.slice(bom.length));
  const lines: IndexLine[] = [];
  for (let i = 0; i < raw.length; i++) {
    const { text: t, eol, offset } = raw[i]!;
    const block = blocks.lines[i]!;
    let kind: IndexLineKind;
    let entry: IndexEntry | undefined;
    const item = block.item;
    if (item?.link) {
      const canonical = block.quote === 0 && item.link.form === 'inline' ? entryOf(t) : undefined;
      entry = canonical ?? otherEntry(t, item);
      kind = entry ? 'entry' : 'list';
    } else if (item) kind = 'list';
    else if (block.kind === 'prose' || block.kind === 'thematicBreak') kind = 'other';
    else kind = block.kind;
    const line: IndexLine = { line: i + 1, text: t, eol, offset: offset + bom.length, kind, block };
    if (entry) line.entry = entry;
    lines.push(line);
  }
  return { bom, lines };
}

export function serializeIndex(index: ParsedIndex): string {
  let out = index.bom;
  for (const l of index.lines) out += l.text + l.eol;
  return out;
}

export function entries(index: ParsedIndex): Array<IndexLine & { entry: IndexEntry }> {
  return index.lines.filter((l): l is IndexLine & { entry: IndexEntry } => l.entry !== undefined);
}


export function formatEntry(title: string, target: string, hook: string, bullet = '-', separator = ' — '): string {
  return hook ? `${bullet} [${title}](${target})${separator}${hook}` : `${bullet} [${title}](${target})`;
}
