// The one Markdown block model: for each line of a file, what CommonMark (remark) reads there.
// Every consumer that needs to know code from prose, an entry from an example, or a heading from
// a line of dashes reads it: the index parser, the limits, the content rules, the fixes, the
// merge and consolidation.
//
// Two ways to build it, one result. remark (mdast, with positions) is exact and costs a parse;
// most memory files are plain enough that a line scan gives the same model, so a file takes the
// line path when none of its lines could be read two ways (see `lineBlocks` for the list), and
// remark otherwise. A property test holds the two to each other. A file the line path cannot take
// whole is cut into pieces before each line that surely starts a top-level block, and each
// piece goes its own way (`pieceBlocks`): remark's cost per line and per bracket (tens of
// microseconds) is paid only for the pieces that need it, not for a whole long list or log.
import type { Nodes, Parent, Root, Paragraph } from 'mdast';
import { htmlBlockNames, htmlRawNames } from 'micromark-util-html-tag-name';
import { normalizeIdentifier } from 'micromark-util-normalize-identifier';
import { parseMarkdown } from './markdown.js';
import { MAX_NESTING, withNestingCapped } from './nesting.js';
import { bomOf, splitLines, withoutBom, type Line } from './lines.js';

/**
 * What a line holds, by the innermost block on it (paragraph text is 'prose'). Containers are
 * fields, since a line in a list item or a block quote also has a kind of its own.
 */
export type BlockKind = 'blank' | 'frontmatter' | 'code' | 'html' | 'heading' | 'definition' | 'thematicBreak' | 'prose';

export interface BlockLink {
  /** `[T](x.md)`, or `[T][t]` / `[T][]` / `[T]` resolved through a definition. */
  form: 'inline' | 'reference';
  /** The destination as remark reads it (a reference's: its definition's). */
  url: string;
  /** UTF-16 offsets in the line: the whole link, and its text between the brackets. */
  start: number;
  end: number;
  textStart: number;
  textEnd: number;
}

export interface BlockItem {
  /** 0 for an item of a top-level list, 1 for an item nested in it, ... */
  depth: number;
  ordered: boolean;
  /** UTF-16 offset in the line where the item's content starts (after the marker and its space). */
  contentStart: number;
  /** 1-based last line of the item, and of the top-level item that holds it. */
  endLine: number;
  rootEndLine: number;
  /** The link the item's first paragraph starts with, when it starts with one on this line. */
  link?: BlockLink;
}

export interface BlockHeading {
  level: number;
  setext: boolean;
  /** The heading's content as written (markup kept, `#`s and underline not). */
  text: string;
  startLine: number;
  endLine: number;
}

export interface BlockLine {
  kind: BlockKind;
  /** How many block quotes hold the line. */
  quote: number;
  /** On the first line of a list item (the innermost one when several start there). */
  item?: BlockItem;
  /** On every line of a heading. */
  heading?: BlockHeading;
  /** On every line of a code block. */
  code?: 'fenced' | 'indented';
}

export interface CodeBlock {
  startLine: number;
  endLine: number;
  fenced: boolean;
  /** The info string's first word, lower-cased ('' when none or indented). */
  lang: string;
  /** The code's lines, without fences and container indentation. */
  content: string[];
}

export interface BlockModel {
  /** lines[i] is line i + 1 (lines as splitLines cuts them: \n, \r\n or \r). */
  lines: BlockLine[];
  codeBlocks: CodeBlock[];
  /** Top-level HTML blocks that open with `<!--` (what Claude Code strips from the index). */
  comments: Array<{ startLine: number; endLine: number }>;
  /** How it was made (for tests and the benchmark notes). */
  via: 'lines' | 'remark';
}

/** The block model of a text: the line path when the text allows it, else one remark parse. */
export function blockModel(text: string): BlockModel {
  const cached = memo.get(text);
  if (cached) return cached;
  const model = lineBlocks(text) ?? pieceBlocks(text);
  if (memo.size >= MEMO_SIZE) memo.delete(memo.keys().next().value!);
  memo.set(text, model);
  return model;
}

// A run reads the same text from several places (the index by its parser, its limits, and the
// rules): the last few models are kept, so each file is parsed at most once.
const MEMO_SIZE = 16;
const memo = new Map<string, BlockModel>();

const BLANK_RE = /^[ \t]*$/;
const FM_FENCE_RE = /^---[ \t]*$/;

/**
 * What a remark parse of a piece of a text does with reference definitions: `into` gathers the
 * piece's (a label's first one kept), `resolveWith` gives the links' destinations (the whole
 * text's definitions) in place of the piece's own.
 */
interface Definitions {
  into?: Map<string, string>;
  resolveWith?: ReadonlyMap<string, string>;
}

/**
 * The model from a remark parse (always exact). A run of more than two empty lines is read as its
 * first and last line and the rest put back after: CommonMark reads two empty lines as it reads any more (no block ends or
 * starts by their number; code keeps them as empty lines), and micromark spends tens of
 * microseconds on each.
 */
export function remarkBlocks(text: string, definitions?: Definitions): BlockModel {
  const src = withoutBom(text);
  const raw = splitLines(src);
  // With a CR anywhere, code text is not one string per line (remark keeps the CR): runs stay.
  const runs = src.includes('\r') ? [] : longEmptyRuns(raw);
  if (runs.length === 0) return parsedBlocks(src, raw, definitions);
  // kept[j]: the line of `src` that line j of the shortened text is: of each run its first and last
  // line. middleEnd: for a run's first line, the last of the lines left out after it (0-based).
  const kept: number[] = [];
  const middleEnd = new Map<number, number>();
  const parts: string[] = [];
  let from = 0;
  for (const [first, last] of runs) {
    for (let i = from; i <= first; i++) kept.push(i);
    middleEnd.set(kept.length - 1, last - 1);
    parts.push(src.slice(raw[from]!.offset, raw[first + 1]!.offset));
    from = last;
  }
  for (let i = from; i < raw.length; i++) kept.push(i);
  parts.push(src.slice(raw[from]!.offset));
  const short = parts.join('');
  return withEmptyRunsBack(parsedBlocks(short, splitLines(short), definitions), kept, middleEnd);
}

/** Runs of more than two lines with nothing on them (not even spaces): [first, last], 0-based. */
function longEmptyRuns(raw: ReadonlyArray<{ text: string; eol: string }>): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  const empty = (i: number) => raw[i]!.text === '';
  for (let i = 0; i < raw.length; i++) {
    if (!empty(i)) continue;
    let j = i;
    while (j + 1 < raw.length && empty(j + 1)) j++;
    if (j - i >= 2) runs.push([i, j]);
    i = j;
  }
  return runs;
}

/** The model of the shortened text, with each run's lines back and every line number moved. */
function withEmptyRunsBack(model: BlockModel, kept: number[], middleEnd: Map<number, number>): BlockModel {
  // The lines left out read as the run's first line reads: a block that ends there (a fence an
  // item's end closes) takes them too. No block starts on an empty line.
  const first = (l: number) => kept[l - 1]! + 1;
  const last = (l: number) => (middleEnd.get(l - 1) ?? kept[l - 1]!) + 1;
  for (const b of model.codeBlocks) {
    const contentFirst = b.fenced ? b.startLine + 1 : b.startLine;
    for (let l = b.endLine; l >= contentFirst; l--) {
      const end = middleEnd.get(l - 1);
      if (end === undefined) continue;
      // An empty line inside the block is a line of its code (a fence is never empty); code that is
      // one empty line has the value '', read as no lines.
      if (b.content.length === 0) b.content.push('');
      b.content.splice(l - contentFirst + 1, 0, ...new Array<string>(end - kept[l - 1]!).fill(''));
    }
  }
  const lines: BlockLine[] = [];
  const moved = new Set<object>();
  model.lines.forEach((line, j) => {
    lines.push(line);
    for (const o of [line.item, line.heading]) {
      if (!o || moved.has(o)) continue;
      moved.add(o);
      if ('startLine' in o) o.startLine = first(o.startLine);
      o.endLine = last(o.endLine);
      if ('rootEndLine' in o) o.rootEndLine = last(o.rootEndLine);
    }
    const end = middleEnd.get(j);
    if (end === undefined) return;
    const { item: _item, heading: _heading, ...plain } = line;
    for (let k = kept[j]! + 1; k <= end; k++) lines.push({ ...plain });
  });
  for (const o of [...model.codeBlocks, ...model.comments]) {
    o.startLine = first(o.startLine);
    o.endLine = last(o.endLine);
  }
  return { ...model, lines };
}

/** The model from remark's parse of the text as it is (`remarkBlocks` without the shortening). */
export function parsedBlocks(src: string, raw: ReadonlyArray<{ text: string; eol: string; offset: number }>, definitions?: Definitions): BlockModel {
  const starts = raw.map((l) => l.offset);
  // A line no leaf block covers holds only container markers (`>`, an empty item's bullet).
  const lines: BlockLine[] = raw.map(() => ({ kind: 'blank', quote: 0 }));
  const model: BlockModel = { lines, codeBlocks: [], comments: [], via: 'remark' };
  if (raw.length === 0) return model;
  const tree = parseMarkdown(src);
  const own = new Map<string, string>();
  collectDefinitions(tree, own);
  if (definitions?.into) for (const [id, url] of own) if (!definitions.into.has(id)) definitions.into.set(id, url);
  const resolving = definitions?.resolveWith ?? own;
  const col = (line: number, offset: number) => offset - starts[line - 1]!;
  const mark = (node: Nodes, kind: BlockKind, extra: Partial<BlockLine> = {}) => {
    const p = node.position!;
    for (let l = p.start.line; l <= lastLine(p) && l <= lines.length; l++) Object.assign(lines[l - 1]!, { kind }, extra);
  };

  const walk = (node: Nodes, parent: Parent | null, depth: number, quote: number, rootEnd: number | null) => {
    const p = node.position;
    if (!p) return;
    switch (node.type) {
      case 'yaml':
        mark(node, 'frontmatter');
        return;
      case 'code': {
        // Indented code starts at its indentation (four columns or more), a fence at most three in.
        const fenced = /^ {0,3}(?:`{3,}|~{3,})/.test(src.slice(p.start.offset!, p.start.offset! + 16));
        mark(node, 'code', { code: fenced ? 'fenced' : 'indented' });
        model.codeBlocks.push({
          startLine: p.start.line,
          endLine: lastLine(p),
          fenced,
          lang: fenced ? (node.lang ?? '').toLowerCase() : '',
          content: node.value === '' ? [] : node.value.split('\n'),
        });
        return;
      }
      case 'html':
        mark(node, 'html');
        if (parent?.type === 'root' && /^[ \t]*<!--/.test(node.value)) model.comments.push({ startLine: p.start.line, endLine: lastLine(p) });
        return;
      case 'heading': {
        // (An ATX heading is one line; a setext heading's underline is on a line of its own. Its
        // text may start with `#`: `#x` or `#\u00a0x` above `===`.)
        const setext = lastLine(p) > p.start.line;
        const kids = node.children;
        const text = kids.length === 0 ? '' : src.slice(kids[0]!.position!.start.offset!, kids[kids.length - 1]!.position!.end.offset!);
        mark(node, 'heading', { heading: { level: node.depth, setext, text, startLine: p.start.line, endLine: lastLine(p) } });
        return;
      }
      case 'thematicBreak':
        mark(node, 'thematicBreak');
        return;
      case 'definition':
        mark(node, 'definition');
        return;
      case 'paragraph':
        mark(node, 'prose');
        return;
      case 'blockquote':
        for (let l = p.start.line; l <= endOf(node); l++) lines[l - 1]!.quote = Math.max(lines[l - 1]!.quote, quote + 1);
        for (const c of node.children) walk(c, node, depth, quote + 1, rootEnd);
        return;
      case 'list':
        for (const c of node.children) walk(c, node, depth, quote, rootEnd);
        return;
      case 'listItem': {
        const line = p.start.line;
        const first = node.children[0];
        let contentStart: number;
        if (first?.position && first.position.start.line === line) contentStart = col(line, first.position.start.offset!);
        else {
          const marker = /^(?:[-*+]|\d{1,9}[.)])[ \t]?/.exec(src.slice(p.start.offset!, p.start.offset! + 12));
          contentStart = col(line, p.start.offset!) + (marker ? marker[0].length : 1);
        }
        const end = endOf(node);
        const item: BlockItem = { depth, ordered: (parent as { ordered?: boolean | null }).ordered === true, contentStart, endLine: end, rootEndLine: rootEnd ?? end };
        const link = first?.type === 'paragraph' && first.position!.start.line === line ? leadingLink(first, line, col, resolving) : undefined;
        if (link) item.link = link;
        lines[line - 1]!.item = item;
        for (const c of node.children) walk(c, node, depth + 1, quote, rootEnd ?? end);
        return;
      }
      default:
        if ('children' in node) for (const c of node.children) walk(c as Nodes, node, depth, quote, rootEnd);
    }
  };
  for (const c of tree.children) walk(c, tree, 0, 0, null);
  return model;
}

/**
 * The model of a text the line path cannot take whole: cut before each line that surely starts a
 * top-level block (`topLevelBlockStarts`), each piece read by the line path when it
 * can be, else by remark, and the pieces' lines put together. Exact: CommonMark closes every open
 * block but a top-level fence or HTML block at such a line. Reference definitions change no
 * block, only which links there are: each piece's are gathered, and the links items start with
 * are then resolved through all of them (`resolveReferenceLinks`; where that cannot be done on
 * the line, the whole file goes to remark).
 */
export function pieceBlocks(text: string): BlockModel {
  const src = withoutBom(text);
  const raw = splitLines(src);
  const cuts = topLevelBlockStarts(raw);
  if (cuts.length === 0) return remarkBlocks(text);
  const defined = src.includes(']:') ? new Map<string, string>() : null;
  const parts: Array<{ from: number; piece: string; part: BlockModel }> = [];
  let from = 0;
  for (const to of [...cuts, raw.length]) {
    const piece = src.slice(raw[from]!.offset, to < raw.length ? raw[to]!.offset : src.length);
    const fast = lineBlocks(piece);
    if (fast && defined && !addDefinitions(fast, raw, from, defined)) return remarkBlocks(text);
    parts.push({ from, piece, part: fast ?? remarkBlocks(piece, defined ? { into: defined } : undefined) });
    from = to;
  }
  // Links the line cannot resolve: their piece is read again by remark with every definition of
  // the text after it, so that remark resolves them as it does in the whole text.
  const exact = new WeakSet<BlockItem>();
  const again = defined ? parts.filter((p) => p.part.lines.some((l, k) => unresolvable(l, raw[p.from + k]!.text, defined))) : [];
  if (again.length > 0) {
    const appendix = definitionLines(defined!);
    // Each piece read again carries every definition: where that would be more than the text
    // itself (many definitions, many such pieces), the whole text is read once instead.
    if (appendix === null || again.length * appendix.text.length > src.length) return remarkBlocks(text);
    for (const p of again) {
      const model = withDefinitionsAfter(p.piece, appendix, defined!);
      if (!model) return remarkBlocks(text);
      for (const l of model.lines) if (l.item) exact.add(l.item);
      p.part = model;
    }
  }
  const model: BlockModel = { lines: [], codeBlocks: [], comments: [], via: 'lines' };
  for (const p of parts) appendShifted(model, p.part, p.from);
  return defined ? (resolveReferenceLinks(model, raw, defined, exact) ?? remarkBlocks(text)) : model;
}

/**
 * A text's definitions as lines to read after a piece of it: one `[label]: x` line each, by the
 * label as mdast's `identifier` gives it; null when a label would not be read back as itself.
 */
function definitionLines(defined: ReadonlyMap<string, string>): { text: string; count: number } | null {
  const labels = [...defined.keys()];
  if (labels.some((l) => labelKey(l) !== l)) return null;
  return { text: labels.map((l) => `[${l}]: x\n`).join(''), count: labels.length };
}

/**
 * remark's model of a piece of a text read with the text's definitions after it (a blank line,
 * then `definitionLines`), its links resolved through them; null when those lines are not read
 * as definitions, or a block of the piece reaches them.
 */
function withDefinitionsAfter(piece: string, appendix: { text: string; count: number }, defined: ReadonlyMap<string, string>): BlockModel | null {
  const lines = splitLines(piece).length;
  const text = piece + (piece.endsWith('\n') || piece.endsWith('\r') ? '\n' : '\n\n') + appendix.text;
  const model = remarkBlocks(text, { resolveWith: defined });
  const after = model.lines.slice(lines + 1);
  if (after.length !== appendix.count || after.some((l) => l.kind !== 'definition' || l.quote > 0)) return null;
  const within = (o: { endLine: number; rootEndLine?: number }) => o.endLine <= lines && (o.rootEndLine ?? 0) <= lines;
  if (model.codeBlocks.some((b) => !within(b)) || model.comments.some((c) => !within(c))) return null;
  model.lines.length = lines;
  if (model.lines.some((l) => (l.item && !within(l.item)) || (l.heading && !within(l.heading)))) return null;
  return model;
}

/** Whether a line's item starts with brackets the line path cannot resolve (`referenceLink`). */
function unresolvable(line: BlockLine, t: string, defined: ReadonlyMap<string, string>): boolean {
  if (!line.item || line.item.link?.form === 'inline' || line.kind !== 'prose' || t.charCodeAt(line.item.contentStart) !== 0x5b) return false;
  return t.includes('\t') || referenceLink(t, line.item.contentStart, defined) === null;
}

/** Adds a piece's model that starts at 0-based line `shift` of the whole (line numbers moved once). */
function appendShifted(model: BlockModel, part: BlockModel, shift: number): void {
  if (part.via === 'remark') model.via = 'remark';
  const moved = new Set<object>();
  const move = (o: { startLine?: number; endLine: number; rootEndLine?: number }) => {
    if (moved.has(o)) return;
    moved.add(o);
    if (o.startLine !== undefined) o.startLine += shift;
    o.endLine += shift;
    if (o.rootEndLine !== undefined) o.rootEndLine += shift;
  };
  for (const line of part.lines) {
    if (line.item) move(line.item);
    if (line.heading) move(line.heading);
    model.lines.push(line);
  }
  for (const b of part.codeBlocks) {
    move(b);
    model.codeBlocks.push(b);
  }
  for (const c of part.comments) {
    move(c);
    model.comments.push(c);
  }
}

const CUT_ITEM_RE = /^[-*+][ \t]+\S/;
const INDENTED_4_RE = /^(?: {4}| {0,3}\t)/;
// A quote or list item opening (what follows a container's marker). When a container interrupts
// paragraph text (or follows indented code, even after a blank line), remark reads the containers
// it opens as if they too interrupted (an empty item, or an ordered one not starting at 1, is then
// text), where a piece starting with that line would read them as opening: no cut there.
const OPENS_CONTAINER_RE = /^[ \t]*(?:>|[-*+](?:[ \t]|$)|\d{1,9}[.)](?:[ \t]|$))/;
// The first character of a line that can only be paragraph text.
const PLAIN_START_RE = /^[^\s\-*+_=0-9>#<`~|[\]!\\&]/;
// A fence or `<` after indentation or after container markers (`- `, `1. `, `>`), each marker
// indented any number of columns (a quote four columns in is an item's). Each space is read one
// way only: with `>[ \t]?` and ` {0,3}` both taking it, a failing line of 30 `> ` took minutes.
const CONTAINED_OPEN_RE = /^(?:[ \t]+|(?:[ \t]*(?:(?:[-*+]|\d{1,9}[.)])(?=[ \t]|$)|>))+[ \t]*)(?:`{3}|~{3}|<)/;
const FENCE_RE = /^( {0,3})(`{3,}|~{3,})(.*)$/;
// HTML blocks that end at a marker (CommonMark's kinds 1 to 5), by how they open.
const HTML_UNTIL: Array<[RegExp, string[]]> = [
  [/^<(?:script|pre|style|textarea)(?:[ \t>]|$)/i, ['</script>', '</pre>', '</style>', '</textarea>']],
  [/^<!--/, ['-->']],
  [/^<\?/, ['?>']],
  [/^<![A-Za-z]/, ['>']],
  [/^<!\[CDATA\[/, [']]>']],
];

/**
 * Whether a line (outside a fence or HTML block opened at the top level) surely starts a block at
 * the top level: a bullet in the first column with content that opens no container (it closes
 * every open list item, quote and paragraph, and is never a lazy continuation), or a heading or a paragraph in the first
 * column after a blank line (no container holds it, and nothing continues across the blank). A line
 * that may open anything else (an empty item, a break, a quote, `---` that would start a piece as
 * frontmatter) is left alone: remark reads some of those by what came before.
 */
function startsTopLevelBlock(line: string, previous: string): boolean {
  if (CUT_ITEM_RE.test(line)) return !ONLY_MARKS_RE.test(line) && !OPENS_CONTAINER_RE.test(line.replace(/^[-*+][ \t]+/, ''));
  return BLANK_RE.test(previous) && (PLAIN_START_RE.test(line) || /^#{1,6}[ \t]+\S/.test(line));
}

/**
 * 0-based lines (after frontmatter, never the first) where a top-level block surely starts
 * (`startsTopLevelBlock`), outside a fenced code block or HTML block that opened at the top level:
 * the only blocks such a line does not close. After a fence or HTML opener that is indented or
 * follows container markers, no cut is made: it may belong to a list item or to the top level, and
 * remark's reading of the lines before the line that closes it depends on that line.
 */
export function topLevelBlockStarts(raw: ReadonlyArray<{ text: string }>): number[] {
  const cuts: number[] = [];
  let i = 0;
  if (raw.length > 0 && FM_FENCE_RE.test(raw[0]!.text)) {
    const close = raw.findIndex((l, k) => k > 0 && FM_FENCE_RE.test(l.text));
    if (close > 0) i = close + 1;
  }
  const first = i;
  let fence: { mark: string; length: number } | null = null;
  let htmlUntil: string[] | 'blank' | null = null;
  // Whether every line since the last blank one is paragraph text in the first column or an item
  // whose content is (its lazy lines included): a top-level paragraph, or one in a top-level item.
  let plainSinceBlank = true;
  const cutBefore = (line: number) => {
    // Cut before the blank lines above it: a block its line closes (a fence left open in a list
    // item) ends before them in remark's reading of the whole, and would take them in a piece.
    // Not before one indented four columns or more: indented code above takes it in both readings.
    let at = line;
    while (at > first && BLANK_RE.test(raw[at - 1]!.text) && !INDENTED_4_RE.test(raw[at - 1]!.text)) at--;
    if (at > first && at > (cuts[cuts.length - 1] ?? 0)) cuts.push(at);
  };
  for (; i < raw.length; i++) {
    const t = raw[i]!.text;
    if (fence) {
      const m = FENCE_RE.exec(t);
      if (m && m[2]![0] === fence.mark && m[2]!.length >= fence.length && BLANK_RE.test(m[3]!)) fence = null;
      continue;
    }
    if (htmlUntil === 'blank') {
      // An HTML block that ends at a blank line, or a paragraph that only looked like one: in the
      // latter a fence or a comment may open inside it and run past the blank line.
      if (/^ {0,3}(?:`{3}|~{3}|<)/.test(t) || CONTAINED_OPEN_RE.test(t)) break;
      if (BLANK_RE.test(t)) htmlUntil = null;
      plainSinceBlank = htmlUntil === null;
      continue;
    }
    if (htmlUntil) {
      if (htmlUntil.some((end) => t.includes(end))) htmlUntil = null;
      plainSinceBlank = false;
      continue;
    }
    if (BLANK_RE.test(t)) {
      plainSinceBlank = true;
      continue;
    }
    const f = FENCE_RE.exec(t);
    // A backtick fence's info string holds no backtick; with one, the line is no fence.
    const isFence = f !== null && !(f[2]![0] === '`' && f[3]!.includes('`'));
    if (isFence && f[1] !== '') break;
    // A fence or HTML block opened inside a list item or quote may run on to the line that closes
    // the container: which lines remark then gives it depends on that line. No cut after one.
    if (CONTAINED_OPEN_RE.test(t)) break;
    if (i > first && (startsTopLevelBlock(t, raw[i - 1]!.text) || (plainSinceBlank && interruptsParagraph(t, isFence)))) cutBefore(i);
    plainSinceBlank &&= PLAIN_START_RE.test(t) || (CUT_ITEM_RE.test(t) && PLAIN_START_RE.test(t.replace(/^[-*+][ \t]+/, '')));
    if (isFence) {
      fence = { mark: f[2]![0]!, length: f[2]!.length };
      continue;
    }
    const lead = leadingSpaces(t);
    if (lead < 4 && t.charCodeAt(lead) === 0x3c) {
      // (One to three columns in, an HTML block opens as in the first.)
      const html = lead > 0 ? t.slice(lead) : t;
      const kind = HTML_UNTIL.find(([open]) => open.test(html));
      // Ends on its own line when its end marker follows the opener there (`<?>` ends itself:
      // micromark looks for `?>` from the `?` of the opener).
      if (kind) htmlUntil = kind[1].some((end) => html.indexOf(end, end === '?>' ? 1 : 2) >= 0) ? null : kind[1];
      else htmlUntil = 'blank';
    }
  }
  return cuts;
}

/**
 * Whether a first-column line after top-level paragraph text (or after a blank line) surely starts
 * a top-level block: a block quote, a fence or an ATX heading interrupts the paragraph, and an item
 * holding it needs its lines indented. (After a blank line, `startsTopLevelBlock` takes the rest.)
 */
function interruptsParagraph(line: string, isFence: boolean): boolean {
  return isFence || (line.startsWith('>') && !OPENS_CONTAINER_RE.test(line.slice(1))) || /^#{1,6}(?:[ \t]|$)/.test(line);
}

/**
 * The last line a node covers. A block that a container's end closes (a fence left open in a list
 * item) ends where the next line starts, at its column 1: that line is not the block's.
 */
function lastLine(p: { start: { line: number }; end: { line: number; column: number } }): number {
  return p.end.column === 1 && p.end.line > p.start.line ? p.end.line - 1 : p.end.line;
}

/**
 * The last line a list item or block quote covers: its last child's. remark ends a container
 * whose last block the next item closed (an open fence) after that item's marker, on its line.
 */
function endOf(node: Parent): number {
  const last = node.children[node.children.length - 1];
  if (!last?.position) return lastLine(node.position!);
  return 'children' in last && (last.type === 'listItem' || last.type === 'blockquote' || last.type === 'list') ? endOf(last) : lastLine(last.position);
}

function collectDefinitions(node: Nodes, into: Map<string, string>) {
  if (node.type === 'definition') {
    // The first definition of a label is the one references use.
    if (!into.has(node.identifier)) into.set(node.identifier, node.url);
    return;
  }
  if ('children' in node) for (const c of node.children) collectDefinitions(c as Nodes, into);
}

function leadingLink(paragraph: Paragraph, line: number, col: (line: number, offset: number) => number, definitions: ReadonlyMap<string, string>): BlockLink | undefined {
  const node = paragraph.children[0];
  if (!node || (node.type !== 'link' && node.type !== 'linkReference')) return undefined;
  const p = node.position!;
  if (p.start.offset !== paragraph.position!.start.offset || p.end.line !== line) return undefined;
  const url = node.type === 'link' ? node.url : definitions.get(node.identifier);
  if (url === undefined) return undefined;
  const kids = node.children;
  const start = col(line, p.start.offset!);
  const textStart = start + 1;
  const textEnd = kids.length === 0 ? textStart : col(line, kids[kids.length - 1]!.position!.end.offset!);
  return { form: node.type === 'link' ? 'inline' : 'reference', url, start, end: col(line, p.end.offset!), textStart, textEnd };
}

// ---------------------------------------------------------------------------------------------
// The line path. A file takes it only when every line is one of these (a tab in a line's
// indentation and in the whitespace after its container markers is read as the columns it reaches
// to the next tab stop: see `withTabStops`; one further in, in text, a heading, a tag, a fence's
// info or code, as written; code gives what its containers and indentation leave of a tab):
//   blank (spaces and tabs only); frontmatter (`---` on line 1 closed by a later `---`); an ATX
//   heading `# ...` (its closing `#`s dropped), `#tag` as text; a bullet or ordered item five columns or more after the
//   marker (its content starts one column after it: the rest is indented code, the item's first
//   block), or one to four columns after the marker, whose content is text (starting with a plain
//   inline link `[T](x.md)` or not: no brackets or angle brackets in the text but escaped or in
//   code spans closed before its `]`; a destination of plain characters, or in angle brackets,
//   and a title or none; by reference, through the file's definitions; an autolink; an inline
//   tag or a `<` that opens no HTML block; an HTML comment ending on the line), an ATX heading, a bullet or `1.` item it opens on its line (read as
//   any item is: `- - a`) or a quote (of text, empty, or read as a document as below), nested in
//   the item whose content its marker is indented to (or one to three columns in, with nothing
//   open); text (lazy, or indented and text in the first column too); a fence, in the first column
//   or in an item; indented code in an item; a quote line of text, at the top level or in an item;
//   a block quote of anything the line path reads (nested quotes, lists, headings...) where nothing
//   before or after it reaches in (`quoteDocument`); an HTML comment, processing instruction,
//   declaration, CDATA section, block-level tag, raw block (`<pre>`, `<script>`...) or complete tag
//   of another name in the first column (the last where it interrupts nothing, or lazily after a
//   quote's or an item's paragraph where the next line ends it; after top-level text it is text);
//   in the first column where no quote reaches, a setext underline under a top-level paragraph
//   (in a quote's document, under a paragraph of one line), a thematic break, `===` with nothing
//   open; indented code at the top level (four columns in with nothing open); an empty item (its
//   marker alone on its line, no tab) where no paragraph is open and not after indented code, its
//   content on the lines below indented one column past the marker.
// Anything else sends the file (or its piece) to remark: another line of only `-`, `=`, `*` or `_`
// (marks indented or where a lazy line could be), a `]:` that may be part of a reference
// definition the line cannot read, an empty item where a paragraph is open or opened on another
// item's line, item content that opens another block, a quote
// that holds what the line path does not read or that something before or after it reaches into,
// indented code in a text holding a CR, other HTML, an ordered item that starts at a number other
// than 1 in an item right after code or after top-level indented code, a line nesting more containers than the parse reads (MAX_NESTING), a link inside a
// tab, and the few shapes whose remark reading `lineBlocks` notes as its own.
// ---------------------------------------------------------------------------------------------

const ITEM_RE = /^([-*+]|\d{1,9}[.)])([ \t]+|$)/;
const ATX_RE = /^#{1,6}(?:[ \t]|$)/;
const ONLY_MARKS_RE = /^[-*_=][-*_= \t]*$/;
const SETEXT_RE = /^(=+|-+)[ \t]*$/;
// A reference definition on one line, in plain characters only (the label up to 999 of them; the
// destination may be in angle brackets).
const TITLE_START_RE = /^["'(]/;
const LONE_CR_RE = /\r(?!\n)/;
const DEFINITION_RE = /^ {0,3}\[(?=[^\]]{0,999}\])[^[\]\\`<>]*[^\s[\]\\`<>][^[\]\\`<>]*\]:[ \t]*(?:<[^<>\\&]*>|[^\s<>()\\"'`\x00-\x1f\x7f]+)(?:[ \t]+"[^"\\]*")?[ \t]*$/;
const LEADING_SPACE_RE = /^[ \t]+/;
const TRAILING_SPACE_RE = /[ \t]+$/;
const THEMATIC_RE = /^(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$/;

/**
 * Makes the top-level paragraph that ends on the line before `under` a setext heading: every line
 * of it and its underline, with the content as written (its first line's indentation and its
 * last line's trailing spaces and tabs not). False, and nothing made, for a paragraph of more
 * than one line when `manyLines` is false, or right after a definition.
 */
function setextHeading(lines: BlockLine[], source: readonly Line[], under: number, level: number, manyLines: boolean): boolean {
  let first = under - 1;
  while (first > 0 && lines[first - 1]!.kind === 'prose' && lines[first - 1]!.quote === 0 && !lines[first - 1]!.item) first--;
  if (first < under - 1 && !manyLines) return false;
  // (Under a paragraph that follows reference definitions, remark's heading starts at them.)
  if (first > 0 && lines[first - 1]!.kind === 'definition') return false;
  let text = '';
  for (let k = first; k < under; k++) text += k < under - 1 ? source[k]!.text + source[k]!.eol : source[k]!.text;
  text = text.replace(LEADING_SPACE_RE, '').replace(TRAILING_SPACE_RE, '');
  const heading: BlockHeading = { level, setext: true, text, startLine: first + 1, endLine: under + 1 };
  for (let k = first; k <= under; k++) lines[k] = { kind: 'heading', quote: 0, heading };
  return true;
}
/**
 * Makes the paragraph of `item` that ends on the line before `under` a setext heading, as
 * `setextHeading` does at the top level: its lines from the item's own line (its content only)
 * or from the first after a blank line. False, and nothing made, where its first line is not
 * the item's and not after a blank line, or a line of it holds a tab.
 */
function itemSetextHeading(lines: BlockLine[], source: readonly Line[], raw: readonly Line[], under: number, item: BlockItem, level: number): boolean {
  let first = under - 1;
  while (lines[first]!.item !== item) {
    if (first === 0 || lines[first]!.kind !== 'prose' || lines[first]!.quote !== 0 || lines[first]!.item) return false;
    if (lines[first - 1]!.kind === 'blank') break;
    first--;
  }
  if (lines[first]!.item === item && lines[first]!.kind !== 'prose') return false;
  // (Its lines read as written: with a tab among them, remark's to read.)
  for (let k = first; k <= under; k++) if (source[k]!.text !== raw[k]!.text) return false;
  let text = '';
  for (let k = first; k < under; k++) {
    const line = k === first && lines[k]!.item === item ? source[k]!.text.slice(item.contentStart) : source[k]!.text;
    text += k < under - 1 ? line + source[k]!.eol : line;
  }
  text = text.replace(LEADING_SPACE_RE, '').replace(TRAILING_SPACE_RE, '');
  const heading: BlockHeading = { level, setext: true, text, startLine: first + 1, endLine: under + 1 };
  for (let k = first; k <= under; k++) {
    const own = lines[k]?.item;
    lines[k] = { kind: 'heading', quote: 0, heading };
    if (own) {
      // (An item's first block is a heading now: it starts with no link.)
      delete own.link;
      lines[k]!.item = own;
    }
  }
  return true;
}

// A line that starts as a one-line definition with a plain label and destination, then holds
// something other than a title after them: it is no definition, and starts none.
const FAILED_DEFINITION_RE = /^\[[^[\]\\`<>]{0,999}\]:[ \t]*[^\s<>()\\"'`\x00-\x1f\x7f]+[ \t]+[^ \t"'(]/;

/** Whether a paragraph line (its first) may start a reference definition. */
function mayStartDefinition(t: string): boolean {
  const content = t.slice(leadingSpaces(t));
  return content.startsWith('[') && !FAILED_DEFINITION_RE.test(content);
}
const ASCII_PUNCTUATION_RE = /^[!-/:-@[-`{-~]$/;
// Autolinks (CommonMark's): a scheme and what follows it to `>`, or an email address.
const URI_AUTOLINK_RE = /^<([A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>\x00-\x1f\x7f]*)>/;
const EMAIL_AUTOLINK_RE = /^<[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*>/;
// An inline link's destination of plain characters, in parentheses, with no title.
// In angle brackets it may hold spaces (`(<a b.md>)`); either may have a title after a space or
// tab, in quotes or parentheses. Nothing remark decodes (`&`, a backslash) in either.
const PLAIN_DESTINATION_RE = /\((?:<([^<>\n\\&]*)>|([^\s()<>\\&"'`]+)|)(?:[ \t]+(?:"[^"\\&]*"|'[^'\\&]*'|\([^()\\&]*\)))?[ \t]*\)/y;
// What a prose line (or an item's content) must not start with on the line path.
const OPENS_BLOCK_RE = /^(?:[ \t]|>|<|`{3}|~{3}|#|[-*+](?:[ \t]|$)|\d{1,9}[.)](?:[ \t]|$))/;

/**
 * The model by a line scan, or null when the text holds something only a parser can read exactly.
 * It reads frontmatter, ATX headings, paragraphs (lazy and indented lines), items whose content is
 * text, fenced code, indented code or block quotes of paragraphs, nested or not and across blank
 * lines (and the plain link each starts with), fences, HTML comments and block-level tags in the
 * first column, raw HTML blocks and complete tags, block quotes of paragraphs, and block quotes
 * of anything it reads (each read as a document of its own: `nesting` is how many quotes hold
 * `text`), setext headings, thematic breaks and top-level indented code; anything else (other
 * HTML, definitions, marks it cannot place) is left to remark.
 */
export function lineBlocks(text: string, nesting = 0, definitions = false): BlockModel | null {
  const src = withoutBom(text);
  // Whether the file may hold a reference definition (so reference links): a quote's document
  // is told by the file that holds it.
  if (nesting === 0) definitions = src.includes(']:');
  const source = splitLines(src);
  // remark parses the text with what a line holds past its MAX_NESTING-th container read as text
  // (markdown.ts): the lines are read so too, as `raw`, a fence's code taken from `source` as
  // written (one unit for one: every position stays).
  const capped = nesting === 0 ? withNestingCapped(src) : src;
  // (With tabs among them, remark's columns past the cap are its own: remark's to read.)
  if (capped !== src && src.includes('\t')) return null;
  const read = capped === src ? source : splitLines(capped).map((l, k) => (l.text === source[k]!.text ? source[k]! : l));
  let model: BlockModel | null;
  if (!src.includes('\t')) model = readLines(src, source, read, nesting, definitions);
  else {
    // Tabs are read by the columns they reach: each line is read with the tabs of its indentation
    // and container markers as spaces, and the model's offsets and code are then the source's again.
    const raw = read.map((l) => {
      const text = l.text.includes('\t') ? withTabStops(l.text) : l.text;
      return text === l.text ? l : { text, eol: l.eol, offset: l.offset };
    });
    model = readLines(src, source, raw, nesting, definitions);
    model = model && withSourceOffsets(model, source, raw);
  }
  if (!model || nesting > 0 || !definitions) return model;
  // (Definitions are the file's: the links they resolve are read once the whole file is.)
  const defined = new Map<string, string>();
  return addDefinitions(model, source, 0, defined) ? resolveReferenceLinks(model, source, defined) : null;
}

// A label as mdast's `identifier` gives it (micromark's folding, then lower case): the key of a
// text's definitions, whichever way they were read.
const labelKey = (label: string): string => normalizeIdentifier(label).toLowerCase();

// A definition line `DEFINITION_RE` has read: its label and destination.
const DEFINITION_PARTS_RE = /^ {0,3}\[([^\]]*)\]:[ \t]*(?:<([^>]*)>|(\S+))/;
// A link's text or label of plain characters: nothing in it can hold a bracket or reach past its
// `]` (a code span, an autolink), and a label is at most 999 characters.
const PLAIN_LABEL_RE = /\[([^[\]\\`<>]{0,999})\]/y;

/**
 * Adds the definitions of a line-path model (of the text's lines from `shift` on) to `defined`,
 * a label's first one kept; false when a destination holds a character reference (remark's to
 * decode).
 */
function addDefinitions(model: BlockModel, source: readonly Line[], shift: number, defined: Map<string, string>): boolean {
  for (let i = 0; i < model.lines.length; i++) {
    if (model.lines[i]!.kind !== 'definition') continue;
    const [, label, inBrackets, plain] = DEFINITION_PARTS_RE.exec(source[i + shift]!.text)!;
    const url = inBrackets ?? plain;
    if (url!.includes('&')) return false;
    const id = labelKey(label!);
    if (!defined.has(id)) defined.set(id, url!);
  }
  return true;
}

/**
 * The model with the reference link each item starts with (`[T][label]`, `[T][]`, `[T]`) as the
 * text's definitions resolve it, or null when an item starts with brackets read otherwise than
 * plainly (remark's to read). An inline link stays as it is: definitions change none.
 */
function resolveReferenceLinks(
  model: BlockModel,
  source: readonly Line[],
  defined: ReadonlyMap<string, string>,
  // Items whose links a parse knowing every definition has resolved already.
  exact?: WeakSet<BlockItem>,
): BlockModel | null {
  for (let i = 0; i < model.lines.length; i++) {
    const line = model.lines[i]!;
    const t = source[i]!.text;
    if (!line.item || exact?.has(line.item) || line.item.link?.form === 'inline' || line.kind !== 'prose' || t.charCodeAt(line.item.contentStart) !== 0x5b) continue;
    if (t.includes('\t')) return null;
    const link = referenceLink(t, line.item.contentStart, defined);
    if (link === null) return null;
    if (link) line.item.link = link;
    else delete line.item.link;
  }
  return model;
}

/**
 * The reference link that starts at `at` in a line, as micromark's label end reads one: a full
 * reference when its label is defined, a collapsed or shortcut one when the text is (a full
 * label that is not defined makes no link, even of a defined text). undefined when there is no
 * link; null when the brackets hold more than plain characters, or an inline link may follow.
 */
function referenceLink(t: string, at: number, defined: ReadonlyMap<string, string>): BlockLink | undefined | null {
  const close = linkTextEnd(t, at);
  if (close < 0) return null;
  let end = close + 1;
  const text = t.slice(at + 1, close);
  let label = text;
  const next = t.charCodeAt(end);
  if (next === 0x28) return null;
  if (next === 0x5b) {
    PLAIN_LABEL_RE.lastIndex = end;
    const full = PLAIN_LABEL_RE.exec(t);
    if (!full) return null;
    end += full[0].length;
    if (full[1] !== '') label = full[1]!;
  }
  const url = defined.get(labelKey(label));
  if (url === undefined) return undefined;
  return { form: 'reference', url, start: at, end, textStart: at + 1, textEnd: close };
}

/**
 * Where the text of a link whose `[` is at `at` ends (its `]`), reading the code spans and
 * escapes in it as micromark does (a run of backticks opens one that the next run of as many
 * closes; what is between is code, brackets too; `\]` is text), or -1: an angle bracket outside
 * code, a code span not closed on the line, no `]`, or more characters than a label may hold
 * (999). A bracket outside code is -1 too, unless `nested`: then the text may hold pairs of
 * brackets that make no link (none followed by `(` or `[`), as CommonMark's link text may; whether
 * such a pair is a link by a definition is the caller's to ask (with none in the file, it is not).
 * A pair followed by a plain inline destination is a link: INNER_LINK, the `[` at `at` makes none.
 */
function linkTextEnd(t: string, at: number, nested = false): number {
  // The brackets opened inside the text and not yet closed (nested only).
  const openers: number[] = [];
  for (let k = at + 1; k < t.length && k - at <= 1000; ) {
    const c = t.charCodeAt(k);
    if (c === 0x5d) {
      const opener = openers.pop();
      if (opener === undefined) return k;
      const after = t.charCodeAt(k + 1);
      if (after === 0x28) {
        // A pair inside that makes an inline link: the brackets before it are text (a link holds
        // no link), so the text opened at `at` makes none. An image does not: remark's to read.
        PLAIN_DESTINATION_RE.lastIndex = k + 1;
        return t.charCodeAt(opener - 1) !== 0x21 && PLAIN_DESTINATION_RE.test(t) ? INNER_LINK : -1;
      }
      if (after === 0x5b) return -1;
      k++;
      continue;
    }
    if (c === 0x5c) {
      // An escaped punctuation character is text (a bracket too); a backslash before anything else is one.
      k += ASCII_PUNCTUATION_RE.test(t.charAt(k + 1)) ? 2 : 1;
      continue;
    }
    if (c === 0x5b && nested) {
      openers.push(k);
      k++;
      continue;
    }
    if (c === 0x3c && nested) {
      // Inline HTML is passed over whole (a bracket in it is no bracket of the text); an autolink,
      // which is a link, or what may be HTML going on to the next line, is remark's.
      const end = inlineHtmlEnd(t, k);
      if (end === -2) return -1;
      k = end < 0 ? k + 1 : end;
      continue;
    }
    if (c === 0x5b || c === 0x3c || c === 0x3e) return -1;
    if (c !== 0x60) {
      k++;
      continue;
    }
    const run = backtickRunEnd(t, k) - k;
    let j = k + run;
    for (;;) {
      j = t.indexOf('`', j);
      if (j < 0) return -1;
      const e = backtickRunEnd(t, j);
      if (e - j === run) break;
      j = e;
    }
    k = j + run;
  }
  return -1;
}

// CommonMark's inline HTML, on one line: an open tag, a closing tag, a comment, a processing
// instruction, a declaration, a CDATA section.
const INLINE_HTML_RE =
  /<(?:[A-Za-z][A-Za-z0-9-]*(?:[ \t]+[A-Za-z_:][A-Za-z0-9_.:-]*(?:[ \t]*=[ \t]*(?:[^ \t"'=<>`]+|'[^']*'|"[^"]*"))?)*[ \t]*\/?>|\/[A-Za-z][A-Za-z0-9-]*[ \t]*>|!-->|!--->|!--[^]*?-->|\?[^]*?\?>|![A-Za-z][^>]*>|!\[CDATA\[[^]*?\]\]>)/y;
// What may open inline HTML or an autolink (a letter, `/`, `!` or `?` after the `<`).
const MAY_BE_HTML_RE = /<[A-Za-z/!?]/y;
// The autolinks, read where a `<` is.
const URI_AUTOLINK_AT_RE = new RegExp(URI_AUTOLINK_RE.source.slice(1), 'y');
const EMAIL_AUTOLINK_AT_RE = new RegExp(EMAIL_AUTOLINK_RE.source.slice(1), 'y');

/**
 * Where the inline HTML whose `<` is at `k` ends; -1 when the `<` opens none (it is text); -2 when
 * it opens an autolink (a link), may open HTML that goes on past the line, or holds a bracket.
 */
function inlineHtmlEnd(t: string, k: number): number {
  URI_AUTOLINK_AT_RE.lastIndex = k;
  EMAIL_AUTOLINK_AT_RE.lastIndex = k;
  if (URI_AUTOLINK_AT_RE.test(t) || EMAIL_AUTOLINK_AT_RE.test(t)) return -2;
  INLINE_HTML_RE.lastIndex = k;
  if (INLINE_HTML_RE.test(t)) {
    const end = INLINE_HTML_RE.lastIndex;
    // A bracket inside: micromark reads the brackets of a link's text before the HTML in it (a
    // `]` in an attribute ends the text), which this reading does not follow.
    return /[[\]]/.test(t.slice(k, end)) ? -2 : end;
  }
  MAY_BE_HTML_RE.lastIndex = k;
  return MAY_BE_HTML_RE.test(t) ? -2 : -1;
}

/** What linkTextEnd gives for a text in which a pair of brackets makes an inline link first: no link starts at its `[`. */
const INNER_LINK = -3;

function backtickRunEnd(t: string, k: number): number {
  while (t.charCodeAt(k) === 0x60) k++;
  return k;
}

/**
 * `lineBlocks` on the lines as read (`raw`: the source's lines, or the same with tabs as spaces);
 * `source` gives a fence's code as written.
 */
function readLines(src: string, source: readonly Line[], raw: readonly Line[], nesting: number, definitions: boolean): BlockModel | null {
  const hasCr = src.includes('\r');
  // Whether top-level indented code can be read here with a CR in the text: every CR is a CRLF's,
  // and no tab moves the code's columns.
  const crlfCode = hasCr && !LONE_CR_RE.test(src) && !src.includes('\t');
  const lines: BlockLine[] = new Array(raw.length);
  const codeBlocks: CodeBlock[] = [];
  let i = 0;
  if (raw.length > 0 && FM_FENCE_RE.test(raw[0]!.text)) {
    let close = -1;
    for (let k = 1; k < raw.length; k++) {
      if (FM_FENCE_RE.test(raw[k]!.text)) {
        close = k;
        break;
      }
    }
    if (close < 0) return null;
    for (; i <= close; i++) lines[i] = { kind: 'frontmatter', quote: 0 };
  }
  const bodyStart = i;
  // What the previous line leaves open: nothing, a paragraph (top-level or in the quote), the
  // paragraph of the innermost of the open list items (outermost first), or those items with no
  // paragraph open (after a fence in one).
  let open: 'none' | 'para' | 'item' | 'inItem' = 'none';
  let items: BlockItem[] = [];
  // Each top-level item with the items nested in it: they end where it ends.
  const families: BlockItem[][] = [];
  // Empty items, with where the model puts their content: until the end, `contentStart` is where
  // lines below are placed in them.
  const emptyItems: Array<[BlockItem, number]> = [];
  const extendItems = (line: number) => {
    for (const it of items) it.endLine = line;
  };
  // The innermost open item whose content starts at or before column n, and how far past that
  // start n is (with none: the top level, from column 0).
  const placeIn = (n: number) => {
    let holder = items.length - 1;
    while (holder >= 0 && items[holder]!.contentStart > n) holder--;
    return { holder, past: n - (holder < 0 ? 0 : items[holder]!.contentStart) };
  };
  // The block quote the previous line is in, the open item that holds it (-1: none, the top level),
  // and its `>` lines with nothing on them since its last paragraph line: remark ends a quote at
  // its last block, so those are outside it (unless the quote holds no block at all). A quote is
  // always the innermost container: a line that opens anything else in an item closes it.
  let quote: { hasBlock: boolean; emptySince: number[]; holder: number } | null = null;
  // Indented code in an item: `column` where its lines' text starts (its item's content start and
  // four more), `blanks` the blank lines after its last line, which the next line decides.
  let code: { start: number; column: number; content: string[]; blanks: string[] } | null = null;
  // An open fence: `container` is the column its item's content starts at (0 at the top level),
  // `indent` how far in from there its opening line is; `content` its lines when they are not the
  // source's own (an indented fence); `blanks` blank lines inside an item's fence, which the next
  // line decides.
  let fence: OpenFence | null = null;
  // The first line of an HTML comment block that is still open; an HTML block that ends at a blank
  // line is open (CommonMark's kind 6: a block-level tag such as `<details>`).
  let commentStart = -1;
  let htmlToBlank = false;
  let rawOpen = false;
  // What ends an open processing instruction, declaration or CDATA section (`?>`, `>`, `]]>`).
  let htmlUntil: string | null = null;
  const comments: Array<{ startLine: number; endLine: number }> = [];
  // In a quote's document (`nesting` > 0), remark ends a block that the next line's container
  // closes (a quote holding no block, an item's fence, even at the document's end) after the
  // outer quote's `>` on that line: the block takes that line too. Left to remark.
  let nestedEnd = false;
  // The last line (0-based) of the last quote read as a document of its own.
  let quoteDocumentEnd = -1;
  // The first line of the top-level paragraph line i goes on (the last one found is kept, so that
  // each line is walked over once however many of a paragraph's lines ask).
  let lastParagraph = { start: -1, end: -1 };
  const paragraphStart = (i: number): number => {
    let k = i - 1;
    while (k > 0 && lines[k - 1]!.kind === 'prose' && lines[k - 1]!.quote === 0 && !lines[k - 1]!.item) {
      if (k - 1 === lastParagraph.end) {
        k = lastParagraph.start;
        break;
      }
      k--;
    }
    lastParagraph = { start: k, end: i - 1 };
    return k;
  };
  // Whether a line holding `]:` is surely no part of a reference definition: top-level text going
  // on a paragraph whose first line can start none, or starting a paragraph and unable to start
  // one itself (a definition starts a paragraph, and never interrupts one).
  const definitionCannotHold = (i: number, t: string, lead: number): boolean => {
    if (nesting > 0 || quote !== null || (i > 0 && quoteDocumentEnd === i - 1) || t.charCodeAt(lead) === 0x3e) return false;
    const kind = readLine(t)?.kind;
    if (open === 'para') return (kind === 'text' || kind === 'indented') && !mayStartDefinition(raw[paragraphStart(i)]!.text);
    if (open === 'none' || (open === 'inItem' && lead === 0)) return kind === 'text' && !mayStartDefinition(t);
    return false;
  };
  const endQuote = () => {
    if (quote?.hasBlock) for (const k of quote.emptySince) lines[k]!.quote = 0;
    else if (quote) nestedEnd = true;
    quote = null;
  };
  const endFence = (last: number) => {
    const first = source[fence!.start + 1];
    let content: string[];
    if (fence!.content) content = fence!.content.length === 1 && fence!.content[0] === '' ? [] : fence!.content;
    else {
      const value = first && fence!.start + 1 <= last ? src.slice(first.offset, source[last]!.offset + source[last]!.text.length) : '';
      content = value === '' ? [] : value.split('\n');
    }
    codeBlocks.push({ startLine: fence!.start + 1, endLine: Math.max(last, fence!.start) + 1, fenced: true, lang: fence!.lang, content });
    fence = null;
  };
  // Indented code ended by line `next` (or the text's end), after the blank lines held in `blanks`:
  // remark ends it on the last of them that is indented as far as its text (the code's line end
  // before it dropped, as every code block's last one, when nothing is left of it); the rest are
  // blank lines.
  const endCode = (next: number) => {
    const c = code!;
    const first = next - c.blanks.length;
    let last = c.blanks.length - 1;
    while (last >= 0 && c.blanks[last]!.length < c.column) last--;
    c.blanks.forEach((b, j) => {
      if (j < last || (j === last && b.length > c.column)) c.content.push(b.slice(c.column));
      lines[first + j] = j <= last ? { kind: 'code', quote: 0, code: 'indented' } : { kind: 'blank', quote: 0 };
    });
    // (With CRLF line ends, remark's code is its lines with their ends, cut at each `\n`: every line
    // but the last keeps its CR.)
    const content = hasCr ? c.content.map((x, j) => (j < c.content.length - 1 ? x + raw[c.start + j]!.eol : x)).join('').split('\n') : c.content;
    codeBlocks.push({ startLine: c.start + 1, endLine: first + last + 1, fenced: false, lang: '', content });
    if (last >= 0) extendItems(first + last + 1);
    code = null;
  };
  // An item's fence that the item's end closes at line `next` (or the text's end), after the blank
  // lines held in `blanks`. They are all the code's when a container (an item or a quote) opens on
  // that line, or at the end; before anything else, remark ends the code where the containers'
  // columns on the last blank line end: that line is no code when it is empty, and the line end
  // before it is dropped (as every code block's last one) when nothing is left of it.
  const endFenceAtItemEnd = (next: number, containerNext: boolean) => {
    if (next < raw.length) nestedEnd = true;
    const f = fence!;
    let last = next - f.blanks.length - 1;
    f.blanks.forEach((b, j) => {
      const k = next - f.blanks.length + j;
      const text = withoutIndent(b.slice(f.container), f.indent);
      lines[k] = { kind: 'blank', quote: 0 };
      if (j === f.blanks.length - 1 && !containerNext) {
        if (b === '') return;
        if (text !== '') f.content!.push(text);
      } else f.content!.push(text);
      lines[k] = { kind: 'code', quote: 0, code: 'fenced' };
      last = k;
    });
    endFence(last);
    extendItems(last + 1);
    open = 'inItem';
  };
  const openFence = (at: number, f: { mark: string; length: number; lang: string }, container: number, indent: number) => {
    lines[at] = { kind: 'code', quote: 0, code: 'fenced' };
    fence = { mark: f.mark, length: f.length, lang: f.lang, start: at, container, indent, content: container > 0 || indent > 0 ? [] : null, blanks: [] };
  };
  // Puts the model of a quote read as a document (`quoteDocument`), starting at line i, in the
  // item `holder` (-1: the top level); returns its last `>` line or lazy line (0-based).
  const placeQuote = (read: { model: BlockModel; inner: string[]; end: number }, holder: number): number => {
    const depth = holder + 1;
    const family = holder >= 0 ? families[families.length - 1]! : null;
    for (let j = 0; j < read.model.lines.length; j++) {
      const l = read.model.lines[j]!;
      const shift = raw[i + j]!.text.length - read.inner[j]!.length;
      if (l.item) {
        l.item.depth += depth;
        l.item.contentStart += shift;
        l.item.endLine += i;
        l.item.rootEndLine += i;
        if (l.item.link) {
          l.item.link.start += shift;
          l.item.link.end += shift;
          l.item.link.textStart += shift;
          l.item.link.textEnd += shift;
        }
        family?.push(l.item);
      }
      // (A setext heading's lines share one heading: moved once.)
      if (l.heading && (j === 0 || read.model.lines[j - 1]!.heading !== l.heading)) {
        l.heading.startLine += i;
        l.heading.endLine += i;
      }
      if (j <= read.end) l.quote += 1;
      lines[i + j] = l;
    }
    for (const b of read.model.codeBlocks) codeBlocks.push({ ...b, startLine: b.startLine + i, endLine: b.endLine + i });
    items = items.slice(0, holder + 1);
    if (holder >= 0) extendItems(i + read.end + 1);
    open = holder >= 0 ? 'inItem' : 'none';
    quoteDocumentEnd = i + read.model.lines.length - 1;
    return quoteDocumentEnd;
  };
  for (; i < raw.length; i++) {
    const t = raw[i]!.text;
    const lead = leadingSpaces(t);
    if (fence && (fence as OpenFence).container > 0) {
      // In an item: a blank line is the fence's if the item goes on after it; a line less indented
      // than the item's content ends both, and is then read as a line after a closed fence.
      const f: OpenFence = fence;
      if (BLANK_RE.test(t)) {
        f.blanks.push(t);
        continue;
      }
      if (lead < f.container) {
        const { past } = placeIn(lead);
        const rest = t.slice(lead);
        if (past >= 4 || ONLY_MARKS_RE.test(rest)) return null;
        endFenceAtItemEnd(i, rest.startsWith('>') || ITEM_RE.test(rest));
      } else {
        for (const b of f.blanks) f.content!.push(withoutIndent(b.slice(f.container), f.indent));
        for (let k = i - f.blanks.length; k < i; k++) lines[k] = { kind: 'code', quote: 0, code: 'fenced' };
        f.blanks = [];
        extendItems(i + 1);
      }
    }
    if (fence) {
      const f: OpenFence = fence;
      lines[i] = { kind: 'code', quote: 0, code: 'fenced' };
      const r = t.slice(Math.min(lead, f.container));
      const m = FENCE_RE.exec(r);
      if (m && m[2]![0] === f.mark && m[2]!.length >= f.length && BLANK_RE.test(m[3]!)) {
        endFence(i - 1);
        codeBlocks[codeBlocks.length - 1]!.endLine = i + 1;
        if (f.container > 0) open = 'inItem';
        continue;
      }
      f.content?.push(withoutIndent(r, f.indent));
      continue;
    }
    if (code) {
      // Blank lines are the code's when a line indented as far follows, else blank lines after it.
      if (BLANK_RE.test(t)) {
        code.blanks.push(t);
        continue;
      }
      if (lead >= code.column) {
        for (const b of code.blanks) code.content.push(b.slice(code.column));
        for (let k = i - code.blanks.length; k <= i; k++) lines[k] = { kind: 'code', quote: 0, code: 'indented' };
        code.blanks = [];
        code.content.push(t.slice(code.column));
        extendItems(i + 1);
        continue;
      }
      endCode(i);
    }
    if (rawOpen) {
      lines[i] = { kind: 'html', quote: 0 };
      if (RAW_END_RE.test(t)) rawOpen = false;
      continue;
    }
    if (htmlUntil) {
      lines[i] = { kind: 'html', quote: 0 };
      if (t.includes(htmlUntil)) htmlUntil = null;
      continue;
    }
    if (commentStart >= 0) {
      lines[i] = { kind: 'html', quote: 0 };
      if (t.includes('-->')) {
        comments.push({ startLine: commentStart + 1, endLine: i + 1 });
        commentStart = -1;
      }
      continue;
    }
    if (BLANK_RE.test(t)) {
      // The open items go on past a blank line (the next line decides), with no paragraph open.
      endQuote();
      lines[i] = { kind: 'blank', quote: 0 };
      open = items.length > 0 ? 'inItem' : 'none';
      htmlToBlank = false;
      continue;
    }
    if (htmlToBlank) {
      lines[i] = { kind: 'html', quote: 0 };
      continue;
    }
    if (t.startsWith('<!--')) {
      // An HTML comment block (it interrupts a paragraph and closes an item or a quote) to the line
      // that holds `-->`. `<!-->` and `<!--->` are remark's to read.
      if (/^<!---?>/.test(t)) return null;
      endQuote();
      items = [];
      open = 'none';
      lines[i] = { kind: 'html', quote: 0 };
      if (t.indexOf('-->', 4) >= 0) comments.push({ startLine: i + 1, endLine: i + 1 });
      else commentStart = i;
      continue;
    }
    const other = OTHER_HTML_RE.exec(t);
    if (other) {
      // A processing instruction, declaration or CDATA section: an HTML block as a comment is, to
      // the line that holds its end. micromark looks for the end right after the opener's `<?`,
      // `<!` and a letter, or `<![CDATA[` (so `<?>` ends where it opens).
      const [until, from] = other[0] === '<?' ? ['?>', 1] : other[0].length > 3 ? [']]>', 9] : ['>', 3];
      endQuote();
      items = [];
      open = 'none';
      lines[i] = { kind: 'html', quote: 0 };
      if (t.indexOf(until, from) < 0) htmlUntil = until;
      continue;
    }
    if (definitions && t.includes(']:') && !definitionCannotHold(i, t, lead)) {
      // A reference definition of one line where nothing is open at the top level (it interrupts
      // no paragraph; in the first column after a blank line, it closes the items), with a plain
      // label, destination and title, and no line after it that could go on it (a title, an
      // underline); any other line holding `]:` is remark's to read.
      const closesItems = open === 'inItem' && lead === 0 && BLANK_RE.test(raw[i - 1]!.text);
      if (nesting > 0 || (open !== 'none' && !closesItems) || quote !== null || (i > 0 && quoteDocumentEnd === i - 1) || !DEFINITION_RE.test(t)) return null;
      // The line after it: blank, another such definition, or plain text in the first column,
      // a link's `[` too (a paragraph after it); remark reads what else may go on or interrupt it.
      const next = raw[i + 1]?.text ?? '';
      if (!BLANK_RE.test(next) && !(next.includes(']:') && DEFINITION_RE.test(next)) && !((PLAIN_START_RE.test(next) || next.startsWith('[')) && !TITLE_START_RE.test(next))) return null;
      lines[i] = { kind: 'definition', quote: 0 };
      items = [];
      open = 'none';
      continue;
    }
    const inItems: boolean = open === 'item' || open === 'inItem';
    if (open === 'none' && lead >= 4 && quote === null && (i === 0 || quoteDocumentEnd !== i - 1)) {
      // Four columns in with nothing open: indented code (it interrupts no paragraph). (With a CR
      // that ends a line alone, or a CR and a tab, its lines are remark's to cut.)
      if (hasCr && !crlfCode) return null;
      lines[i] = { kind: 'code', quote: 0, code: 'indented' };
      code = { start: i, column: 4, content: [t.slice(4)], blanks: [] };
      continue;
    }
    if (open === 'inItem' && lead >= 4) {
      const { holder, past } = placeIn(lead);
      if (past >= 4) {
        // Four columns past where an item's content starts, with no paragraph open: indented code.
        // (With a CR anywhere, its lines are remark's to cut; when it closes a quote or an item
        // nested in its own, remark makes a code block of each of its lines.)
        if (holder < 0 || holder < items.length - 1 || hasCr || quote) return null;
        endQuote();
        items = items.slice(0, holder + 1);
        extendItems(i + 1);
        lines[i] = { kind: 'code', quote: 0, code: 'indented' };
        const column = items[holder]!.contentStart + 4;
        code = { start: i, column, content: [t.slice(column)], blanks: [] };
        continue;
      }
    }
    if (t.charCodeAt(lead) === 0x3e && !quote) {
      // A block quote the quote lines below cannot read (it holds a quote, a list, a heading, a
      // fence...): read as a document of its own when nothing before it or after it can reach in.
      const { holder, past }: { holder: number; past: number } = inItems ? placeIn(lead) : { holder: -1, past: lead };
      const read = past < 4 ? quoteDocument(raw, lines, i, bodyStart, holder < 0 ? 0 : items[holder]!.contentStart, holder >= 0, nesting, definitions) : 'lines';
      if (read === null) return null;
      if (read !== 'lines') {
        i = placeQuote(read, holder);
        continue;
      }
    }
    if (t.charCodeAt(lead) === 0x3e) {
      // '>': a quote line, in the item it is indented into or at the top level (it interrupts a
      // paragraph and closes the items it is not indented into).
      const { holder, past }: { holder: number; past: number } = inItems ? placeIn(lead) : { holder: -1, past: lead };
      if (past >= 4 || (quote && quote.holder < holder)) return null;
      if (!quote || quote.holder !== holder) {
        endQuote();
        items = items.slice(0, holder + 1);
        quote = { hasBlock: false, emptySince: [], holder };
      }
      const content = t.startsWith(' ', lead + 1) ? t.slice(lead + 2) : t.slice(lead + 1);
      if (BLANK_RE.test(content)) {
        // A quote in an item that holds no block yet: its `>` lines are its own and the item's.
        if (holder >= 0 && !quote.hasBlock) extendItems(i + 1);
        lines[i] = { kind: 'blank', quote: 1 };
        quote.emptySince.push(i);
        open = holder < 0 ? 'none' : 'inItem';
        continue;
      }
      if (!isQuotedText(content)) return null;
      lines[i] = { kind: 'prose', quote: 1 };
      quote.hasBlock = true;
      quote.emptySince = [];
      if (holder >= 0) extendItems(i + 1);
      open = holder < 0 ? 'para' : 'item';
      continue;
    }
    if (lead > 0 && open === 'item' && quote === null && !(i > 0 && quoteDocumentEnd === i - 1) && SETEXT_RE.test(t.slice(lead))) {
      // An underline indented into the innermost open item, under its paragraph: a setext heading
      // of that paragraph (in an outer item it is no lazy line: remark's to read).
      const { holder, past } = placeIn(lead);
      if (holder !== items.length - 1 || past >= 4 || nesting > 0) return null;
      if (!itemSetextHeading(lines, source, raw, i, items[holder]!, t.slice(lead).charCodeAt(0) === 0x3d ? 1 : 2)) return null;
      extendItems(i + 1);
      open = 'inItem';
      continue;
    }
    if (lead === 0 && ONLY_MARKS_RE.test(t)) {
      // A line of marks in the first column, where no quote can reach it: a setext underline
      // under a top-level paragraph, a thematic break (which interrupts a paragraph and closes the
      // items), `===` starting a paragraph, or marks that open nothing (text); the rest (an empty
      // item, a break or `===` where a lazy line could be, `--` with nothing open) is remark's to read.
      if (quote !== null || (i > 0 && quoteDocumentEnd === i - 1)) return null;
      const underline = SETEXT_RE.exec(t);
      if (open === 'para' && underline) {
        // (In a quote's document, the heading's text as remark gives it holds the `>` marks of its
        // lines after the first: left to remark when it has more than one.)
        if (!setextHeading(lines, source, i, underline[1]![0] === '=' ? 1 : 2, nesting === 0)) return null;
        open = 'none';
        continue;
      }
      if (THEMATIC_RE.test(t)) {
        lines[i] = { kind: 'thematicBreak', quote: 0 };
        items = [];
        open = 'none';
        continue;
      }
      if (!underline && !ITEM_RE.test(t)) {
        // Marks that open nothing (`*_*_`, `-_`): text, as any first-column line of text is.
        if (open === 'none' || open === 'inItem') {
          items = [];
          open = 'para';
        } else if (open === 'item') extendItems(i + 1);
        lines[i] = { kind: 'prose', quote: 0 };
        continue;
      }
      // (A lone bullet with no paragraph open is an empty item: read below.)
      if (!(LONE_MARKER_RE.test(t) && open !== 'para')) {
        if (open !== 'none' || !underline || underline[1]![0] !== '=') return null;
        lines[i] = { kind: 'prose', quote: 0 };
        open = 'para';
        continue;
      }
    }
    const line = readLine(t);
    if (line === null) return null;
    if (line.kind === 'raw') {
      // A raw HTML block (it interrupts a paragraph and closes an item or a quote) to the line
      // that holds an end tag of any of the four names.
      endQuote();
      lines[i] = { kind: 'html', quote: 0 };
      rawOpen = !line.closed;
      items = [];
      open = 'none';
      continue;
    }
    if (line.kind === 'tag') {
      // A complete tag of another name alone on its line opens an HTML block to a blank line
      // where it interrupts nothing; it cannot interrupt top-level paragraph text, so it is more
      // of it.
      if (open === 'para' && !quote) {
        lines[i] = { kind: 'prose', quote: 0 };
        continue;
      }
      // Lazily after the paragraph of a quote at the top level or of an item, micromark lets it
      // interrupt (html-flow, on a lazy line) and opens the block in that container. The next
      // line ends the block unless it goes on the container: taken only where it does not (or is
      // an empty `>` line of the quote: a blank line there, which ends the block too).
      const lazyInQuote = open === 'para' && quote !== null && (quote as { holder: number }).holder < 0;
      const lazyInItem = open === 'item' && !quote;
      if (lazyInQuote || lazyInItem) {
        // (As the text's last line with no line end, remark places it differently: its own.)
        if (raw[i]!.eol === '') return null;
        const next = raw[i + 1]?.text;
        if (next !== undefined && !BLANK_RE.test(next)) {
          const nl = leadingSpaces(next);
          if (lazyInItem && nl >= items[0]!.contentStart) return null;
          if (lazyInQuote && next.charCodeAt(nl) === 0x3e && !(nl < 4 && BLANK_RE.test(next.slice(nl + 1)))) return null;
        }
        if (lazyInQuote) {
          quote!.emptySince = [];
          lines[i] = { kind: 'html', quote: 1 };
          open = 'none';
        } else {
          lines[i] = { kind: 'html', quote: 0 };
          extendItems(i + 1);
          open = 'inItem';
        }
        continue;
      }
      if (open === 'para' || open === 'item' || quote) return null;
      lines[i] = { kind: 'html', quote: 0 };
      htmlToBlank = true;
      items = [];
      open = 'none';
      continue;
    }
    if (line.kind === 'text') {
      if (open === 'none' || open === 'inItem') {
        endQuote();
        items = [];
        open = 'para';
      } else if (open === 'item') extendItems(i + 1);
      // A lazy line of the quote's paragraph is the quote's.
      lines[i] = { kind: 'prose', quote: quote ? 1 : 0 };
      continue;
    }
    if (line.kind === 'indented' && open === 'inItem') {
      // A paragraph of its own, in the item whose content it is indented to, or at the top level.
      const { holder, past } = placeIn(line.indent);
      if (past >= 4) return null;
      endQuote();
      items = items.slice(0, holder + 1);
      extendItems(i + 1);
      lines[i] = { kind: 'prose', quote: 0 };
      open = holder < 0 ? 'para' : 'item';
      continue;
    }
    if (line.kind === 'indented') {
      // Indentation never interrupts a paragraph. With none open (and so no item), one to three
      // columns start a paragraph, four or more indented code.
      if (open === 'none') {
        if (line.indent >= 4) return null;
        endQuote();
        lines[i] = { kind: 'prose', quote: 0 };
        open = 'para';
        continue;
      }
      if (open === 'item') extendItems(i + 1);
      lines[i] = { kind: 'prose', quote: quote ? 1 : 0 };
      continue;
    }
    if ((line.kind === 'item' || line.kind === 'fence') && (open === 'para' || open === 'item') && placeIn(line.indent).past >= 4) {
      // Four columns past where its holder's content starts (the top level's: column 0), a marker
      // opens neither code nor an item: text of the open paragraph (the quote's, lazily).
      if (open === 'item') extendItems(i + 1);
      lines[i] = { kind: 'prose', quote: quote ? 1 : 0 };
      continue;
    }
    // Whether the previous line is in a quote (which this line, with no `>`, does not go on).
    const quoteOpen = quote !== null || quoteDocumentEnd === i - 1;
    // An empty item interrupts no paragraph (remark reads its line as text or an underline there:
    // its own to read), nor, for micromark, indented code and the blank lines after it; it is read
    // here only as written (no tab on its line).
    if (line.kind === 'item' && line.empty) {
      const interrupts = open === 'para' || (open === 'item' && line.indent > 0 && placeIn(line.indent).holder === items.length - 1);
      if (interrupts || quote !== null || (i > 0 && quoteDocumentEnd === i - 1) || afterIndentedCode(raw, lines, i) || source[i]!.text !== t) return null;
    }
    endQuote();
    if (line.kind === 'heading') {
      lines[i] = { kind: 'heading', quote: 0, heading: { level: line.level, setext: false, text: line.text, startLine: i + 1, endLine: i + 1 } };
      items = [];
      open = 'none';
    } else if (line.kind === 'html') {
      lines[i] = { kind: 'html', quote: 0 };
      htmlToBlank = true;
      items = [];
      open = 'none';
    } else if (line.kind === 'fence') {
      // (With a CR anywhere, an indented fence's code lines are remark's to cut.)
      if (line.indent > 0 && (hasCr || open === 'none')) return null;
      const { holder, past } = line.indent > 0 && inItems ? placeIn(line.indent) : { holder: -1, past: line.indent };
      if (past >= 4) return null;
      items = items.slice(0, holder + 1);
      extendItems(i + 1);
      openFence(i, line, holder < 0 ? 0 : items[holder]!.contentStart, past);
      open = 'none';
    } else {
      // An ordered item that does not start at 1 does not interrupt a paragraph: on a line that goes
      // on every open container (the top level's paragraph, or one indented into the innermost
      // item), it continues it. (Not the paragraph of a quote the line does not go on: see
      // `endsQuote`.)
      if (line.ordered && !line.one && !quoteOpen && (open === 'para' || (open === 'item' && placeIn(line.indent).holder === items.length - 1))) {
        if (open === 'item') extendItems(i + 1);
        lines[i] = { kind: 'prose', quote: 0 };
        continue;
      }
      // (After top-level indented code, remark's reading of such an item is its own.)
      if (line.ordered && !line.one && open === 'none' && afterIndentedCode(raw, lines, i)) return null;
      // Which open item holds it: the innermost whose content starts at or before its marker.
      let holder = -1;
      if (line.indent > 0 && inItems) {
        holder = placeIn(line.indent).holder;
        if (placeIn(line.indent).past >= 4) return null;
        // On a line that does not go on every open item, micromark looks for a new container with
        // nothing to interrupt: it starts a list; so after a blank line that follows text (no
        // paragraph is open) and right after a quote (see `endsQuote`). (After code, fenced or
        // indented, remark's reading is its own.)
        if (holder >= 0 && line.ordered && !line.one && !quoteOpen && open === 'inItem' && !afterBlankAfterText(raw, lines, i)) return null;
      } else if (line.indent >= 4) return null; // with nothing open: top-level indented code
      if (holder < 0) {
        items = [];
        families.push([]);
      } else items = items.slice(0, holder + 1);
      extendItems(i + 1);
      // The items the line opens, outermost first: the line's is the innermost.
      let opened: ReadLine & { kind: 'item' } = line;
      let item: BlockItem = { depth: items.length, ordered: opened.ordered, contentStart: opened.contentStart, endLine: i + 1, rootEndLine: i + 1 };
      items.push(item);
      families[families.length - 1]!.push(item);
      while (opened.inner) {
        opened = opened.inner;
        item = { depth: items.length, ordered: opened.ordered, contentStart: opened.contentStart, endLine: i + 1, rootEndLine: i + 1 };
        items.push(item);
        families[families.length - 1]!.push(item);
      }
      if (opened.link) item.link = opened.link;
      if (opened.bracketsInText && definitions) return null;
      lines[i] = { kind: 'prose', quote: 0, item };
      open = 'item';
      if (opened.heading) {
        lines[i] = { kind: 'heading', quote: 0, item, heading: { ...opened.heading, setext: false, startLine: i + 1, endLine: i + 1 } };
        open = 'inItem';
      } else if (opened.code) {
        // Five columns or more after its marker: the item's content starts one column after it,
        // and the rest of the line is indented code. (With a CR anywhere, remark's to cut.)
        if (hasCr) return null;
        lines[i] = { kind: 'code', quote: 0, item, code: 'indented' };
        const column = opened.contentStart + 4;
        code = { start: i, column, content: [t.slice(column)], blanks: [] };
        open = 'inItem';
      } else if (opened.comment) {
        lines[i] = { kind: 'html', quote: 0, item };
        open = 'inItem';
      } else if (opened.empty) {
        // The item's content starts on the next line, one column after the marker; after a blank
        // line (or at the end) it has none, and no line is placed in it.
        lines[i] = { kind: 'blank', quote: 0, item };
        const next = raw[i + 1];
        if (!next || BLANK_RE.test(next.text)) item.contentStart = Infinity;
        emptyItems.push([item, opened.empty.modelStart]);
        open = 'inItem';
      } else if (opened.quoted === 'empty') {
        lines[i] = { kind: 'blank', quote: 1, item };
        quote = { hasBlock: false, emptySince: [], holder: items.length - 1 };
        open = 'inItem';
      } else if (opened.quoted) {
        // The quote the item opens on its line, read as the quote lines indented into the item are
        // (its line with spaces for the marker: the columns stay); when it holds only text, by the
        // quote lines below.
        const first = ' '.repeat(opened.contentStart) + t.slice(opened.contentStart);
        const read = quoteDocument(raw, lines, i, bodyStart, opened.contentStart, true, nesting, definitions, first);
        if (read === null || (read === 'lines' && opened.quoted === 'document')) return null;
        if (read === 'lines') {
          lines[i]!.quote = 1;
          quote = { hasBlock: true, emptySince: [], holder: items.length - 1 };
        } else {
          const at = i;
          i = placeQuote(read, items.length - 1);
          // (An item the quote opens on this line is the line's innermost.)
          lines[at]!.item ??= item;
        }
      }
    }
  }
  if (code) {
    // (Blank lines after indented code up to a last one with no line end: remark's to read.)
    if ((code as { blanks: string[] }).blanks.length > 0 && raw[raw.length - 1]!.eol === '') return null;
    endCode(raw.length);
  }
  if (fence) {
    // (A fence the quote's end closes: remark's reading of its last lines is its own.)
    if (nesting > 0) return null;
    const f: OpenFence = fence;
    if (f.blanks.length > 0) {
      // (Closed by the text's end on a blank line with no line end: remark's reading of that line
      // is its own.)
      if (raw[raw.length - 1]!.eol === '') return null;
      endFenceAtItemEnd(raw.length, true);
    } else {
      // remark drops a code block's last line end: a last line with none and nothing left after
      // the fence's indentation adds no line to the code.
      if (f.content && raw[raw.length - 1]!.eol === '' && f.start < raw.length - 1 && f.content[f.content.length - 1] === '') f.content.pop();
      endFence(raw.length - 1);
    }
  }
  if (commentStart >= 0) comments.push({ startLine: commentStart + 1, endLine: raw.length });
  // (An HTML block the quote's end closes: left to remark, as a fence is.)
  if (nesting > 0 && (rawOpen || commentStart >= 0 || htmlUntil)) return null;
  endQuote();
  if (nesting > 0 && nestedEnd) return null;
  for (const family of families) for (const it of family) it.rootEndLine = family[0]!.endLine;
  for (const [item, start] of emptyItems) item.contentStart = start;
  return { lines, codeBlocks, comments, via: 'lines' };
}

// A quote's line (after its `>`) after which no paragraph is open in the quote, so that a line
// with no `>` after it is no lazy line: blank, or only `>` (empty nested quotes: `> >`, then `b`),
// or an ATX heading after them (`> # h`, then text). Each `>` here is at most three columns past
// the one before: it opens a quote, which interrupts any paragraph. (`endsQuote` checks the
// document's reading of that line again.)
const NO_PARAGRAPH_AFTER_RE = /^(?: {0,3}>)*(?: *$| {0,3}#{1,6}(?:[ \t]|$))/;

// How many block quotes deep `quoteDocument` reads: as many as the parse reads containers on one
// line (the line path takes no line that nests deeper: see `lineBlocks`). Each level reads its
// lines once more, so reading them costs at most this many times a flat quote's.
const MAX_QUOTE_DOCUMENTS = MAX_NESTING;

/**
 * A block quote whose first line is `i` (its `>` at most three columns past `column`, where the
 * item holding it has its content, or 0), read as the document its lines hold after their `>`
 * and the space after it: what CommonMark parses a quote's content as. 'lines' when the quote
 * lines of `lineBlocks` read it (every line quoted text or empty) or this cannot (then they may,
 * or decline); null when only remark can read the document. Taken only where nothing reaches
 * into the quote or out of it: it starts a text, or follows a blank line or a heading (after
 * text, see `interruptingOpens`; never after code: remark reads what a quote opens there as if it
 * interrupted), its lazy lines go on a paragraph in it, and a blank line, the text's end or a line
 * that surely ends it (`endsQuote`) follows its last line. `end`: its last line (0-based, in the
 * quote) that the quote covers, remark ending a quote at its last block.
 */
function quoteDocument(
  raw: ReadonlyArray<{ text: string; eol: string }>,
  lines: readonly BlockLine[],
  i: number,
  bodyStart: number,
  column: number,
  inItem: boolean,
  nesting: number,
  definitions: boolean,
  firstText = raw[i]!.text,
): 'lines' | null | { model: BlockModel; inner: string[]; end: number } {
  if (nesting >= MAX_QUOTE_DOCUMENTS) return 'lines';
  // After text, remark reads the containers a quote opens on its first line as if they too
  // interrupted the text: an empty item, or an ordered one not starting at 1, is text then.
  const interrupts = i > bodyStart && !BLANK_RE.test(raw[i - 1]!.text) && lines[i - 1]!.kind !== 'heading';
  let before = i - 1;
  while (before >= bodyStart && BLANK_RE.test(raw[before]!.text)) before--;
  if (before >= bodyStart && lines[before]!.kind === 'code') return 'lines';
  const inner: string[] = [];
  // Lines with no `>` that can only be paragraph text: lazy lines of the paragraph open in the
  // quote, if one is (checked on the document's reading below), given to the document as they are.
  const lazy: number[] = [];
  let k = i;
  for (; k < raw.length; k++) {
    const t = k === i ? firstText : raw[k]!.text;
    const lead = leadingSpaces(t);
    if (lead >= column && lead - column <= 3 && t.charCodeAt(lead) === 0x3e) inner.push(t.startsWith(' ', lead + 1) ? t.slice(lead + 2) : t.slice(lead + 1));
    else if (!NO_PARAGRAPH_AFTER_RE.test(inner[inner.length - 1]!) && PLAIN_START_RE.test(t.slice(lead))) {
      lazy.push(inner.length);
      inner.push(t);
    } else break;
  }
  const quoteLines = () => inner.every((c) => BLANK_RE.test(c) || isQuotedText(c)) && !(inItem && BLANK_RE.test(inner[0]!));
  if (quoteLines() || FM_FENCE_RE.test(inner[0]!) || (interrupts && !interruptingOpens(inner[0]!))) return 'lines';
  const read = () => lineBlocks(inner.map((c, j) => c + raw[i + j]!.eol).join(''), nesting + 1, definitions);
  let model = read();
  if (!model) return null;
  if (model.lines.length !== inner.length) return 'lines';
  // A line taken as lazy after a line that holds no paragraph in the document's reading (the end
  // of a fence, HTML) goes on nothing: the quote ends before it. At the top level only, the quote
  // is read again without that line and the lines after it, which is then the line after the
  // quote (`endsQuote`). (Read again at every level, a quote could cost twice its reading at each.)
  const notLazy = nesting === 0 ? lazy.findIndex((j) => j > 0 && model!.lines[j - 1]!.kind !== 'prose') : -1;
  if (notLazy >= 0) {
    k = i + lazy[notLazy]!;
    inner.length = lazy[notLazy]!;
    lazy.length = notLazy;
    if (quoteLines()) return 'lines';
    model = read();
    if (!model) return null;
    if (model.lines.length !== inner.length) return 'lines';
  }
  // A lazy line is the quote's only where it goes on a paragraph there (as it does in the document).
  if (lazy.some((j) => j === 0 || model.lines[j]!.kind !== 'prose' || model.lines[j - 1]!.kind !== 'prose')) return 'lines';
  if (k < raw.length && !BLANK_RE.test(raw[k]!.text) && !endsQuote(raw[k]!.text, column, model.lines[model.lines.length - 1]!.kind)) return 'lines';
  // (A quote holding only empty quotes: where remark ends them is its own.)
  if (model.lines.every((l) => l.kind === 'blank' && !l.item)) return 'lines';
  let end = model.lines.length - 1;
  while (model.lines[end]!.kind === 'blank' && !model.lines[end]!.item && model.lines[end]!.quote === 0) end--;
  return { model, inner, end };
}

/**
 * Whether a line right after a quote's last `>` line surely ends the quote and is read afresh:
 * one that interrupts a paragraph (so is no lazy line of one open in the quote) and opens nothing
 * whose reading depends on interrupting (an ATX heading, a fence, an HTML comment, a quote
 * outside the item holding this one), a non-empty item of any kind, or text after a quote whose
 * last line holds no paragraph (a blank line, a heading, code, HTML). An item opens there whatever it is: on a line that does not go on
 * every open container, micromark looks for a new one with nothing to interrupt (its
 * `self.interrupt` is set only when all go on), so an ordered item not at 1 ends the quote and
 * starts a list. Never four columns past an item's content (remark makes a code block of each
 * line of indented code that closes a quote).
 */
function endsQuote(t: string, column: number, last: BlockKind): boolean {
  const lead = leadingSpaces(t);
  if (t.charCodeAt(lead) === 0x3e) return lead < column;
  if (!(lead < 4 || (lead >= column && lead < column + 4))) return false;
  if (lead === 0 && t.startsWith('<!--')) return !/^<!---?>/.test(t);
  const line = readLine(t);
  if (line === null) return false;
  if (line.kind === 'heading' || line.kind === 'fence') return true;
  // (An empty item interrupts no paragraph: it may be a lazy line of the quote's.)
  if (line.kind === 'item') return !line.empty;
  return (line.kind === 'text' || line.kind === 'indented') && last !== 'prose';
}

/**
 * Whether a quote's first line, after text, opens nothing whose reading depends on interrupting:
 * past any more `>`, no empty item and no ordered item that does not start at 1.
 */
function interruptingOpens(content: string): boolean {
  const rest = content.replace(/^(?: {0,3}> ?)*/, '');
  const m = /^ {0,3}([-*+]|\d{1,9}[.)])(?: +|$)/.exec(rest);
  return !m || (!BLANK_RE.test(rest.slice(m[0].length)) && (m[1]!.length === 1 || /^1[.)]$/.test(m[1]!)));
}

/** Whether line `i` follows one or more blank lines, and the line before them is text (not code). */
function afterBlankAfterText(raw: ReadonlyArray<{ text: string }>, lines: readonly BlockLine[], i: number): boolean {
  let k = i - 1;
  if (k < 0 || !BLANK_RE.test(raw[k]!.text)) return false;
  while (k >= 0 && BLANK_RE.test(raw[k]!.text)) k--;
  return k >= 0 && lines[k]!.kind === 'prose';
}

/** Whether the last line before line i that is not blank is a line of indented code. */
function afterIndentedCode(raw: ReadonlyArray<{ text: string }>, lines: readonly BlockLine[], i: number): boolean {
  let k = i - 1;
  while (k >= 0 && BLANK_RE.test(raw[k]!.text)) k--;
  return k >= 0 && lines[k]!.code === 'indented';
}

// A container's marker after a line's indentation: a quote's `>`, or an item's marker with a
// space or tab after it.
const CONTAINER_MARK_RE = /(?:>|(?:[-*+]|\d{1,9}[.)])(?=[ \t]))/y;

/**
 * The line with each tab of its indentation and of the whitespace after its container markers
 * (`>`, `-`, `1.`...) as the spaces that reach the next tab stop (one every four columns from the
 * line's start): the columns CommonMark reads there, where a container's indentation or the space
 * after a marker may take part of a tab and leave the rest as spaces. Tabs further in are left.
 */
function withTabStops(t: string): string {
  let out = '';
  let copied = 0;
  let k = 0;
  for (;;) {
    for (; t[k] === ' ' || t[k] === '\t'; k++) {
      if (t[k] === ' ') continue;
      out += t.slice(copied, k);
      out += TO_TAB_STOP[out.length % 4];
      copied = k + 1;
    }
    CONTAINER_MARK_RE.lastIndex = k;
    if (!CONTAINER_MARK_RE.test(t)) return out + t.slice(copied);
    k = CONTAINER_MARK_RE.lastIndex;
  }
}

// The spaces a tab stands for, by the column it starts at (modulo 4).
const TO_TAB_STOP = ['    ', '   ', '  ', ' '];

/**
 * Where the character at `at` in `read` (the line as `withTabStops` gives it: some of its tabs as
 * spaces) is in `source`: the offset of the first character of the source at or after it, and how
 * many columns of a tab `at` falls inside are left before that character (0 when none).
 */
function sourceAt(source: string, read: string, at: number): { offset: number; tabLeft: number } {
  let j = 0;
  for (let k = 0; k < source.length; k++) {
    if (j >= at) return { offset: k, tabLeft: j - at };
    j += source[k] === '\t' && read[j] === ' ' ? 4 - (j % 4) : 1;
  }
  return { offset: source.length, tabLeft: j - at };
}

/** The offset in `source` of the character at `at` in `read`, or -1 inside a tab (see `sourceAt`). */
function sourceOffset(source: string, read: string, at: number): number {
  const { offset, tabLeft } = sourceAt(source, read, at);
  return tabLeft === 0 ? offset : -1;
}

/**
 * Whether indented code whose node starts at `at` in `read` is a fence in remark's model: a node
 * starting inside a tab starts, in remark's positions, after it, and `parsedBlocks` takes code
 * whose text from there looks like a fence's start for a fence. (Its own reading: left to it.)
 */
function looksFencedToRemark(source: string, read: string, at: number): boolean {
  const { offset, tabLeft } = sourceAt(source, read, at);
  return tabLeft > 0 && /^ {0,3}(?:`{3,}|~{3,})/.test(source.slice(offset));
}

/**
 * The model of the lines read with tabs as spaces (`withTabStops`), with the source's offsets in
 * its items and links and the source's text in its code. A tab past a line's indentation and its
 * container markers (in text, a heading, a tag, a fence's info, code) is read as written: only a
 * line's start and what follows a container's marker tell blocks apart. Each code line's text is a
 * suffix of its line as read, starting in the columns its containers and the code's indentation
 * take: it is the line as written from that column, the columns left of a tab that column falls
 * inside as spaces (micromark gives what a container or an indentation leaves of a tab so). A fence
 * in the first column gives its lines as written already.
 */
function withSourceOffsets(model: BlockModel, source: readonly Line[], raw: readonly Line[]): BlockModel | null {
  const changed = (k: number) => source[k]!.text !== raw[k]!.text;
  for (const b of model.codeBlocks) {
    if (b.fenced && /^[`~]/.test(source[b.startLine - 1]!.text)) continue;
    const first = b.fenced ? b.startLine : b.startLine - 1;
    // (Code whose lines end in a lone CR is one string: remark keeps the CR, and splits at \n only.)
    if (b.content.some((c) => c.includes('\r'))) {
      for (let k = first; k < b.endLine; k++) if (changed(k)) return null;
      continue;
    }
    for (let j = 0; j < b.content.length; j++) {
      const read = raw[first + j]!.text;
      if (!changed(first + j)) continue;
      if (!read.endsWith(b.content[j]!)) return null;
      const column = read.length - b.content[j]!.length;
      if (!b.fenced && j === 0 && looksFencedToRemark(source[first]!.text, read, column - 4)) return null;
      const { offset, tabLeft } = sourceAt(source[first + j]!.text, read, column);
      b.content[j] = ' '.repeat(tabLeft) + source[first + j]!.text.slice(offset);
    }
  }
  for (let k = 0; k < raw.length; k++) {
    const item = model.lines[k]!.item;
    if (!item || !changed(k)) continue;
    const at = (offset: number) => sourceOffset(source[k]!.text, raw[k]!.text, offset);
    // An item whose first block is code on its line (five columns or more after its marker) may
    // start inside a tab: remark's positions put the code, and so the item's content, after it.
    const start = sourceAt(source[k]!.text, raw[k]!.text, item.contentStart);
    if (start.tabLeft > 0 && model.lines[k]!.kind !== 'code') return null;
    item.contentStart = start.offset;
    const link = item.link;
    if (link) {
      [link.start, link.end, link.textStart, link.textEnd] = [at(link.start), at(link.end), at(link.textStart), at(link.textEnd)];
      if (Math.min(link.start, link.end, link.textStart, link.textEnd) < 0) return null;
    }
  }
  return model;
}

/**
 * How many spaces a line starts with. Only spaces and tabs are Markdown's whitespace: a no-break
 * or em space (which `trimStart` and `trim` take too) is content.
 */
function leadingSpaces(t: string): number {
  let k = 0;
  while (t.charCodeAt(k) === 0x20) k++;
  return k;
}

/** The text without the spaces and tabs around it (and no other whitespace: see `leadingSpaces`). */
/**
 * An ATX heading's content as written, from what follows its opening `#`s: without the spaces
 * around it and its closing sequence (a run of `#` after a space or tab, or alone).
 */
function atxHeadingText(rest: string): string {
  const content = withoutSpaces(rest);
  let run = content.length;
  while (run > 0 && content.charCodeAt(run - 1) === 0x23) run--;
  if (run === 0) return '';
  const before = content.charCodeAt(run - 1);
  return run < content.length && (before === 0x20 || before === 0x09) ? withoutSpaces(content.slice(0, run)) : content;
}

function withoutSpaces(t: string): string {
  const isSpace = (k: number) => t.charCodeAt(k) === 0x20 || t.charCodeAt(k) === 0x09;
  let start = 0;
  let end = t.length;
  while (start < end && isSpace(start)) start++;
  while (end > start && isSpace(end - 1)) end--;
  return t.slice(start, end);
}

/** The line without up to `most` spaces it starts with (a fence's own indentation, from its code). */
function withoutIndent(line: string, most: number): string {
  let k = 0;
  while (k < most && line.charCodeAt(k) === 0x20) k++;
  return line.slice(k);
}

interface OpenFence {
  mark: string;
  length: number;
  start: number;
  lang: string;
  container: number;
  indent: number;
  content: string[] | null;
  blanks: string[];
}

type ReadLine =
  | { kind: 'text' }
  | { kind: 'html' }
  | { kind: 'raw'; closed: boolean }
  | { kind: 'tag' }
  | { kind: 'indented'; indent: number }
  | { kind: 'heading'; level: number; text: string }
  | { kind: 'fence'; indent: number; mark: string; length: number; lang: string }
  | {
      kind: 'item';
      indent: number;
      ordered: boolean;
      one: boolean;
      contentStart: number;
      link?: BlockLink;
      quoted?: true | 'document' | 'empty';
      code?: true;
      // An HTML comment opened and closed on the item's line: its first block.
      comment?: true;
      // The item's inline link has brackets in its text: a pair a definition makes a link would
      // leave the outer brackets text, so a file with definitions is remark's to read.
      bracketsInText?: true;
      heading?: { level: number; text: string };
      // An item its content opens on the same line (`- - a`): its first block.
      inner?: ReadLine & { kind: 'item' };
      // Nothing after the marker: the item's content, if any, starts on the next line, at
      // `contentStart` (one column after the marker, however many spaces follow it); `modelStart` is
      // where remark's model puts it on this line (after the marker and one space or tab, if any).
      empty?: { modelStart: number };
    };

// The answers that carry nothing but their kind, one object each: every line of text was one more.
const TEXT: ReadLine = { kind: 'text' };
const HTML: ReadLine = { kind: 'html' };
const TAG: ReadLine = { kind: 'tag' };

// Patterns read for a line (a literal in a function is a new RegExp each time it runs).
const ONE_MARKER_RE = /^1[.)]$/;
const FIVE_SPACES_RE = /^ {5,}$/;
// A bullet with nothing after it (an empty item's line, or an underline or text where a paragraph is open).
const LONE_MARKER_RE = /^[-*+] *$/;
const ONE_TO_FOUR_SPACES_RE = /^ {1,4}$/;
const NO_TAG_RE = /^<(?![A-Za-z/!?])/;
const ESCAPE_OR_ENTITY_RE = /[\\&]/;
const SPACE_OR_TAB_RE = /[ \t]/;
const MAY_OPEN_TAG_RE = /^<[A-Za-z/!?]/;
const TAG_NAME_RE = /^<(\/?)([A-Za-z][A-Za-z0-9-]*)/;

/**
 * What a non-blank line that is not a quote line opens on the line path, read alone: null when
 * only a parser can tell.
 */
function readLine(t: string): ReadLine | null {
  const c = t.charCodeAt(0);
  if (c === 0x20) {
    const indent = leadingSpaces(t);
    const rest = t.slice(indent);
    if (PLAIN_START_RE.test(rest)) return { kind: 'indented', indent };
    if (rest.startsWith('```') || rest.startsWith('~~~')) return readFence(rest, indent);
    if (ITEM_RE.test(rest)) return ONLY_MARKS_RE.test(rest) && !LONE_MARKER_RE.test(rest) ? null : readItem(t, indent);
    // Text that would be text in the first column (`**Why:**`, `[T](t.md)`) is text indented too.
    return rest.charCodeAt(0) !== 0x3e && readLine(rest)?.kind === 'text' ? { kind: 'indented', indent } : null;
  }
  if (c === 0x3c) return readTagLine(t);
  if (c === 0x23) {
    // (`#tag`, or seven `#`: text.)
    if (!ATX_RE.test(t)) return TEXT;
    const level = /^#{1,6}/.exec(t)![0].length;
    return { kind: 'heading', level, text: atxHeadingText(t.slice(level)) };
  }
  if (c === 0x60 || c === 0x7e) return FENCE_RE.test(t) ? readFence(t, 0) : TEXT;
  // '-', '*', '+', '_', '=' or a digit may start an item, a thematic break or an underline;
  // any other first character starts text.
  if (!(c === 0x2d || c === 0x2a || c === 0x2b || c === 0x5f || c === 0x3d || (c >= 0x30 && c <= 0x39))) return TEXT;
  if (ONLY_MARKS_RE.test(t) && !LONE_MARKER_RE.test(t)) return null;
  return ITEM_RE.test(t) ? readItem(t, 0) : TEXT;
}

/**
 * A line starting with '<': an HTML block that ends at a blank line when it opens (or closes) a
 * block-level tag (micromark's own list), a raw block (`<pre>`, `<script>`, `<style>`,
 * `<textarea>`, and whether its end tag is on this line), a complete tag of another name alone on
 * the line ('tag': a block to a blank line where it interrupts nothing), text when it can open no
 * HTML block ('<' before anything but a letter, '/', '!' or '?', a tag name micromark ends at
 * once, a tag that is not complete), null for the other kinds (comments, processing
 * instructions, declarations and CDATA, which `lineBlocks` reads in the first column before it
 * comes here, and `<div/x`), which remark reads.
 */
function readTagLine(t: string): ReadLine | null {
  if (!MAY_OPEN_TAG_RE.test(t)) return TEXT;
  const m = TAG_NAME_RE.exec(t);
  if (!m) return t.startsWith('</') ? TEXT : null;
  const after = t.charAt(m[0].length);
  // micromark's tag name ends at a space or tab, '/', '>' or the line's end; anything else opens no HTML.
  if (!(after === '' || after === ' ' || after === '\t' || after === '>' || after === '/')) return TEXT;
  const name = m[2]!.toLowerCase();
  if (m[1] === '' && after !== '/' && htmlRawNames.includes(name)) return { kind: 'raw', closed: RAW_END_RE.test(t.slice(m[0].length)) };
  if (!htmlBlockNames.includes(name)) return completeTag(t) ? TAG : TEXT;
  return after !== '/' || t.charAt(m[0].length + 1) === '>' ? HTML : null;
}

// What opens a processing instruction, a declaration or a CDATA section (CommonMark's HTML
// blocks of kinds 3 to 5), in the first column.
const OTHER_HTML_RE = /^<(?:\?|![A-Za-z]|!\[CDATA\[)/;

// What ends a raw HTML block (`<pre>`, `<script>`, `<style>`, `<textarea>`): any of their end tags.
const RAW_END_RE = /<\/(?:pre|script|style|textarea)>/i;

/**
 * Whether a line is one complete open or closing tag and nothing but spaces after it: what opens
 * an HTML block of any other tag name (CommonMark's kind 7), read as micromark's html-flow reads
 * it (its states for attributes, values quoted and not, and the end).
 */
function completeTag(t: string): boolean {
  const space = (k: number) => t.charCodeAt(k) === 0x20 || t.charCodeAt(k) === 0x09;
  const end = (k: number) => {
    if (t[k] !== '>') return false;
    k++;
    while (space(k)) k++;
    return k === t.length;
  };
  let k = 1;
  const closing = t[k] === '/';
  if (closing) k++;
  if (!/[A-Za-z]/.test(t[k] ?? '')) return false;
  while (k < t.length && /[A-Za-z0-9-]/.test(t[k]!)) k++;
  if (closing) {
    while (space(k)) k++;
    return end(k);
  }
  let state: 'nameBefore' | 'nameAfter' = 'nameBefore';
  for (;;) {
    if (state === 'nameBefore') {
      if (t[k] === '/') return end(k + 1);
      if (/[A-Za-z:_]/.test(t[k] ?? '')) {
        k++;
        while (k < t.length && /[A-Za-z0-9\-.:_]/.test(t[k]!)) k++;
        state = 'nameAfter';
        continue;
      }
      if (space(k)) {
        k++;
        continue;
      }
      return end(k);
    }
    // After an attribute's name (or an unquoted value): '=' opens a value.
    if (t[k] === '=') {
      k++;
      while (space(k)) k++;
      const v = t[k];
      if (v === undefined || v === '<' || v === '=' || v === '>' || v === '`') return false;
      if (v === '"' || v === "'") {
        const close = t.indexOf(v, k + 1);
        if (close < 0) return false;
        k = close + 1;
        if (!(t[k] === '/' || t[k] === '>' || space(k))) return false;
        state = 'nameBefore';
        continue;
      }
      while (k < t.length && !/["'/<=>`\r\n \t]/.test(t[k]!)) k++;
      continue;
    }
    if (space(k)) {
      k++;
      continue;
    }
    state = 'nameBefore';
  }
}

/**
 * Whether a quote's content (after its `>` and the space after it) is paragraph text, as a line is
 * at the top level: nothing in it opens another block. (A `[` opens no definition, with no `]:` in
 * the file, and the link an item starts with is never in a quote.)
 */
function isQuotedText(content: string): boolean {
  return !BLANK_RE.test(content) && content.charCodeAt(0) !== 0x3e && readLine(content)?.kind === 'text';
}

/** A fence's opening line (`rest`: the line from its marker on, `indent` columns in), or null. */
function readFence(rest: string, indent: number): ReadLine | null {
  const f = FENCE_RE.exec(rest);
  if (!f) return null;
  const info = withoutSpaces(f[3]!);
  // A backtick fence's info holds no backtick; escapes and entities in it are remark's to read.
  if ((f[2]![0] === '`' && info.includes('`')) || ESCAPE_OR_ENTITY_RE.test(info)) return null;
  return { kind: 'fence', indent, mark: f[2]![0]!, length: f[2]!.length, lang: (info.split(SPACE_OR_TAB_RE)[0] ?? '').toLowerCase() };
}

/**
 * An item's line whose marker starts `indent` columns in: null when its content is not a paragraph,
 * a block quote (`quoted`: true when the quote holds text, 'document' when it may hold more,
 * 'empty' when it holds nothing on this line) or indented code (`code`: five columns or more after
 * the marker, of which the first is the marker's own).
 */
function readItem(t: string, indent: number): ReadLine | null {
  const m = ITEM_RE.exec(t.slice(indent))!;
  const ordered = m[1]!.length > 1;
  const one = ONE_MARKER_RE.test(m[1]!);
  if (FIVE_SPACES_RE.test(m[2]!) && t.length > indent + m[0].length) return { kind: 'item', indent, ordered, one, contentStart: indent + m[1]!.length + 1, code: true };
  if (t.length === indent + m[0].length && !m[2]!.includes('\t')) {
    const marker = indent + m[1]!.length;
    return { kind: 'item', indent, ordered, one, contentStart: marker + 1, empty: { modelStart: m[2] ? marker + 1 : marker } };
  }
  if (!ONE_TO_FOUR_SPACES_RE.test(m[2]!)) return null;
  const contentStart = indent + m[0].length;
  const content = t.slice(contentStart);
  if (content.startsWith('>')) {
    const quoted = content.startsWith('> ') ? content.slice(2) : content.slice(1);
    if (isQuotedText(quoted)) return { kind: 'item', indent, ordered, one, contentStart, quoted: true };
    // A quote holding more than text: read as a document of its own (`quoteDocument`), if it can be.
    return { kind: 'item', indent, ordered, one, contentStart, quoted: BLANK_RE.test(quoted) ? 'empty' : 'document' };
  }
  // An item opened on the same line, a bullet or an ordered one at 1 (one at another number, or an
  // empty one, would be text where the line interrupts a paragraph: remark's to read, as is an
  // empty one opened on the line of another).
  const nested = ITEM_RE.exec(content);
  if (nested) {
    if (ONLY_MARKS_RE.test(content) || (nested[1]!.length > 1 && !ONE_MARKER_RE.test(nested[1]!))) return null;
    const inner = readItem(t, contentStart);
    return inner?.kind === 'item' && !inner.empty ? { kind: 'item', indent, ordered, one, contentStart, inner } : null;
  }
  // An ATX heading, the item's first block (no paragraph is open after it).
  if (content.charCodeAt(0) === 0x23) {
    const h = readLine(content);
    if (h?.kind === 'heading') return { kind: 'item', indent, ordered, one, contentStart, heading: { level: h.level, text: h.text } };
  }
  if (content.startsWith('<!--') && !/^<!---?>/.test(content) && content.indexOf('-->', 4) >= 0) return { kind: 'item', indent, ordered, one, contentStart, comment: true };
  // Content that may open a block of its own is remark's; a '<' that opens no HTML block (an
  // autolink, an inline tag with text after it) is text.
  const opensBlock = OPENS_BLOCK_RE.test(content) && !NO_TAG_RE.test(content) && !(content.charCodeAt(0) === 0x3c && readTagLine(content) === TEXT);
  if (opensBlock || ONLY_MARKS_RE.test(content) || content === '') return null;
  const line: ReadLine = { kind: 'item', indent, ordered, one, contentStart };
  if (content.charCodeAt(0) === 0x3c) {
    // An autolink is a link the item starts with (an email one, or one holding what remark may
    // decode, is remark's to read).
    const auto = URI_AUTOLINK_RE.exec(content);
    if (auto) {
      if (ESCAPE_OR_ENTITY_RE.test(auto[1]!)) return null;
      const end = contentStart + auto[0].length;
      line.link = { form: 'inline', url: auto[1]!, start: contentStart, end, textStart: contentStart + 1, textEnd: end - 1 };
      return line;
    }
    return EMAIL_AUTOLINK_RE.test(content) ? null : line;
  }
  if (!content.startsWith('[')) return line;
  // Without a definition in the file, only an inline link can start the item, and the model
  // records it only when it ends on this line: with no `)` after a `](` here, there is none. Its
  // text may hold code spans and pairs of brackets (`linkTextEnd`; a file with definitions is
  // remark's to read then, `bracketsInText`); its destination is plain.
  const close = linkTextEnd(content, 0, true);
  if (close === INNER_LINK) {
    line.bracketsInText = true;
    return line;
  }
  PLAIN_DESTINATION_RE.lastIndex = close + 1;
  const destination = close < 0 ? null : PLAIN_DESTINATION_RE.exec(content);
  if (!destination) {
    const opening = content.indexOf('](');
    return opening >= 0 && content.indexOf(')', opening + 2) >= 0 ? null : line;
  }
  line.link = {
    form: 'inline',
    url: destination[1] ?? destination[2] ?? '',
    start: contentStart,
    end: contentStart + close + 1 + destination[0].length,
    textStart: contentStart + 1,
    textEnd: contentStart + close,
  };
  if (content.lastIndexOf('[', close) > 0) line.bracketsInText = true;
  return line;
}

/**
 * UTF-16 ranges [start, end) of the text (BOM counted) covered by lines of the given kinds,
 * runs of such lines merged: what a content scan blanks out before reading prose.
 */
export function spansOf(model: BlockModel, text: string, kinds: readonly BlockKind[]): Array<[number, number]> {
  const bom = bomOf(text).length;
  const out: Array<[number, number]> = [];
  const add = (i: number, start: number, end: number) => {
    if (!kinds.includes(model.lines[i]!.kind)) return;
    const last = out[out.length - 1];
    if (last && last[1] === start) last[1] = end;
    else out.push([start, end]);
  };
  // Without a carriage return a line runs to the next \n, as splitLines cuts it: its ends are
  // found without making its text (a topic is cut three times per lint pass otherwise).
  if (!text.includes('\r')) {
    for (let i = 0, at = bom; at < text.length; i++) {
      const lf = text.indexOf('\n', at);
      const end = lf < 0 ? text.length : lf + 1;
      add(i, at, end);
      at = end;
    }
    return out;
  }
  splitLines(bom ? text.slice(1) : text).forEach((l, i) => add(i, l.offset + bom, l.offset + bom + l.text.length + l.eol.length));
  return out;
}

/** Lines (1-based) that are code, fenced or indented (made once per model). */
export function codeLineSet(model: BlockModel): Set<number> {
  let s = codeSets.get(model);
  if (!s) {
    s = new Set<number>();
    model.lines.forEach((l, i) => {
      if (l.kind === 'code') s!.add(i + 1);
    });
    codeSets.set(model, s);
  }
  return s;
}

const codeSets = new WeakMap<BlockModel, Set<number>>();

export type { Root };
