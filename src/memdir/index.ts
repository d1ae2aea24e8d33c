// Lossless model of MEMORY.md: serializeIndex(parseIndex(x)) === x, byte for byte.
// Every line is kept with its own line ending; entries are recognised, never rewritten.

export type IndexLineKind =
  | 'entry' // - [Title](file.md) — hook
  | 'list' // a list item that is not an entry (content written into the index)
  | 'heading'
  | 'blank'
  | 'comment' // a line inside or opening a block HTML comment
  | 'fence' // a line inside or opening a fenced code block
  | 'frontmatter'
  | 'other';

export interface IndexEntry {
  indent: string;
  bullet: '-' | '*' | '+';
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
}

export interface ParsedIndex {
  bom: string;
  lines: IndexLine[];
}

// Bullet, link, then an optional separator and hook. The separator alternatives are the ones
// seen in Claude Code's template (em dash) and in hand-written indexes (en dash, " - ", ":").
// A title may hold balanced brackets ("[WIP]"), as CommonMark link text may.
const ENTRY_RE =
  /^(\s*)([-*+])[ \t]+\[((?:\\.|[^[\]\\]|\[(?:\\.|[^[\]\\])*\])*)\]\(\s*(<[^>]*>|[^\s()]+(?:\([^\s()]*\)[^\s()]*)*)(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)(?:(\s*[—–]\s*|\s+-\s+|\s*:\s*)(.*?))?\s*$/;
const LIST_RE = /^\s*(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/;
const HEADING_RE = /^ {0,3}#{1,6}(?:[ \t]|$)/;
const FENCE_RE = /^ {0,3}(`{3,}|~{3,})/;

const EOL_SPLIT = /(\r\n|\r|\n)/;

/**
 * Lines with their endings ('\n', '\r\n', '\r', or '' for a last line without one) and offsets.
 * A native split, not a loop over characters: most texts are split once, before the code is
 * optimised, and the interpreter is slow at character loops (the merge driver and --staged
 * split cold, on every run).
 */
export function splitLines(text: string): Array<{ text: string; eol: string; offset: number }> {
  if (text === '') return [];
  const parts = text.split(EOL_SPLIT);
  const out: Array<{ text: string; eol: string; offset: number }> = [];
  let offset = 0;
  for (let i = 0; i < parts.length; i += 2) {
    const line = parts[i]!;
    const eol = parts[i + 1] ?? '';
    if (line === '' && eol === '' && i === parts.length - 1) break; // after a final newline
    out.push({ text: line, eol, offset });
    offset += line.length + eol.length;
  }
  return out;
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
  const m = ENTRY_RE.exec(text);
  if (!m) return undefined;
  const [, indent, bullet, title, target, sep, hook] = m;
  const hasHook = sep !== undefined && hook !== undefined && hook.length > 0;
  const separator = sep ?? '';
  return {
    indent: indent!,
    bullet: bullet as IndexEntry['bullet'],
    title: title!,
    target: target!,
    key: normalizeTarget(target!),
    separator,
    hook: hasHook ? hook! : '',
    hookStart: hasHook ? text.trimEnd().length - hook!.length : -1,
  };
}

export function parseIndex(text: string): ParsedIndex {
  const bom = text.charCodeAt(0) === 0xfeff ? '\uFEFF' : '';
  const raw = splitLines(text.slice(bom.length));
  const lines: IndexLine[] = [];
  let inComment = false;
  let fence: string | null = null;
  let inFrontmatter = false;
  for (let i = 0; i < raw.length; i++) {
    const { text: t, eol, offset } = raw[i]!;
    let kind: IndexLineKind;
    let entry: IndexEntry | undefined;
    // Frontmatter only when it is closed: a lone `---` on line 1 is a thematic break.
    if (i === 0 && /^---\s*$/.test(t) && raw.slice(1).some((l) => /^---\s*$/.test(l.text))) {
      inFrontmatter = true;
      kind = 'frontmatter';
    } else if (inFrontmatter) {
      kind = 'frontmatter';
      if (/^---\s*$/.test(t)) inFrontmatter = false;
    } else if (fence !== null) {
      kind = 'fence';
      const m = FENCE_RE.exec(t);
      if (m && m[1]![0] === fence[0] && m[1]!.length >= fence.length && t.trim() === m[1]) fence = null;
    } else if (inComment) {
      kind = 'comment';
      if (t.includes('-->')) inComment = false;
    } else if (/^ {0,3}<!--/.test(t)) {
      kind = 'comment';
      const close = t.indexOf('-->', t.indexOf('<!--') + 4);
      if (close < 0) inComment = true;
    } else if (FENCE_RE.test(t)) {
      kind = 'fence';
      fence = FENCE_RE.exec(t)![1]!;
    } else if (t.trim() === '') {
      kind = 'blank';
    } else if (HEADING_RE.test(t)) {
      kind = 'heading';
    } else if ((entry = parseEntry(t))) {
      kind = 'entry';
    } else if (LIST_RE.test(t)) {
      kind = 'list';
    } else {
      kind = 'other';
    }
    const line: IndexLine = { line: i + 1, text: t, eol, offset: offset + bom.length, kind };
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

/** The line ending a file mostly uses, for lines memlint adds. */
export function dominantEol(text: string): string {
  const crlf = (text.match(/\r\n/g) ?? []).length;
  const lf = (text.match(/\n/g) ?? []).length - crlf;
  return crlf > lf ? '\r\n' : '\n';
}

export function formatEntry(title: string, target: string, hook: string, bullet = '-', separator = ' — '): string {
  return hook ? `${bullet} [${title}](${target})${separator}${hook}` : `${bullet} [${title}](${target})`;
}
