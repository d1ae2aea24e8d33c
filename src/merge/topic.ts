// Three-way merge of a topic file (docs/merge.md, "Topic files and daily logs"): frontmatter key by key (`modified` takes the
// later timestamp), the body line by line with list items added on both sides both kept. Pure.
// No YAML library here: keys are found by their indentation, so the merge never re-serializes
// a value and stays off the driver's start-up path.
import { Chain, type Link } from './chain.js';
import { diff3Regions, insertionsOnly, sameLines } from './lines.js';
import { conflictBlock, fromOurs, fromTheirs, pushAll, render, stripBom, styleOf, toLines, type Conflict, type Line, type MergeResult, type OutLine } from './text.js';

export interface TopicMergeOptions {
  markerSize?: number;
  /** Names the file in conflict labels (e.g. "feedback_testing.md"). */
  name?: string;
}

interface Parts {
  /** Opening fence, YAML lines, closing fence; null when the file has no closed frontmatter. */
  open: Line | null;
  yaml: readonly Line[];
  close: Line | null;
  body: readonly Line[];
}

const OPEN_RE = /^---[ \t]*$/;
const CLOSE_RE = /^(?:---|\.\.\.)[ \t]*$/;

function partsOf(text: string): Parts {
  const lines = toLines(stripBom(text).body);
  if (lines.length > 0 && OPEN_RE.test(lines[0]!.text)) {
    for (let i = 1; i < lines.length; i++) {
      if (CLOSE_RE.test(lines[i]!.text)) return { open: lines[0]!, yaml: lines.slice(1, i), close: lines[i]!, body: lines.slice(i + 1) };
    }
  }
  return { open: null, yaml: [], close: null, body: lines };
}

export function mergeTopic(base: string, ours: string, theirs: string, options: TopicMergeOptions = {}): MergeResult {
  if (ours === theirs || theirs === base) return { text: ours, conflicts: [], notes: [] };
  if (ours === base) return { text: theirs, conflicts: [], notes: [] };
  const markerSize = options.markerSize ?? 7;
  const name = options.name ?? 'topic';
  const style = styleOf(ours, theirs);
  const O = partsOf(base);
  const A = partsOf(ours);
  const B = partsOf(theirs);
  const conflicts: Conflict[] = [];
  const notes: string[] = [];
  const out: OutLine[] = [];

  const frontmatterComparable = A.open !== null && B.open !== null && (O.open !== null || base === '');
  if (!frontmatterComparable && !(A.open === null && B.open === null && O.open === null)) {
    // One side added or removed the frontmatter as a whole: merge the file as lines.
    const whole = (p: Parts) => (p.open ? [p.open, ...p.yaml, p.close!, ...p.body] : p.body);
    pushAll(out, mergeBody(whole(A), whole(O), whole(B), markerSize, name, conflicts));
    return { text: render(out, style), conflicts, notes };
  }
  if (A.open && B.open) {
    out.push(fromOurs(A.open));
    pushAll(out, mergeYaml(O.yaml, A.yaml, B.yaml, markerSize, conflicts));
    out.push(fromOurs(A.close!));
  }
  pushAll(out, mergeBody(A.body, O.body, B.body, markerSize, name, conflicts, A.open ? A.yaml.length + 3 : 1));
  return { text: render(out, style), conflicts, notes };
}

// ---- frontmatter -------------------------------------------------------------------------------

interface Block {
  /** The key; "" for comments or blank lines before the first key. */
  key: string;
  lines: Line[];
}

const KEY_RE = /^("[^"]*"|'[^']*'|[^\s#'"\-?:][^:]*?|-[^\s:][^:]*?)[ \t]*:(?:[ \t]|$)/;

function indentOf(text: string): number {
  return /^[ \t]*/.exec(text)![0].length;
}

/** The keys of a YAML mapping at one indentation, each with its lines; null if it is not one. */
function blocksOf(lines: readonly Line[], indent: number): Block[] | null {
  const blocks: Block[] = [];
  const keys = new Set<string>();
  for (const l of lines) {
    const t = l.text;
    const blankOrComment = t.trim() === '' || t.trim().startsWith('#');
    const ind = indentOf(t);
    if (!blankOrComment && ind === indent) {
      const m = KEY_RE.exec(t.slice(indent));
      if (m) {
        const key = m[1]!.replace(/^["']|["']$/g, '');
        if (keys.has(key)) return null;
        keys.add(key);
        blocks.push({ key, lines: [l] });
        continue;
      }
      // A block sequence written flush with its key ("tags:\n- a") belongs to that key.
      if (!(t.slice(indent).startsWith('- ') || t.slice(indent) === '-') || blocks.length === 0 || blocks[blocks.length - 1]!.key === '') return null;
    } else if (!blankOrComment && ind < indent) {
      return null;
    }
    if (blocks.length === 0) blocks.push({ key: '', lines: [] });
    blocks[blocks.length - 1]!.lines.push(l);
  }
  return blocks;
}

const text = (ls: readonly Line[]) => ls.map((l) => l.text).join('\n');

function scalarValue(block: Block): string {
  const first = block.lines[0]!.text;
  const v = first.slice(first.indexOf(':') + 1).trim();
  return v.replace(/^["']|["']$/g, '');
}

/**
 * The later of two `modified` values. The same instant written two ways (`…05Z`, `…05.000Z`), or
 * the same value quoted differently, is decided by the text itself, so the result does not
 * depend on which side is ours (a rebase swaps them).
 */
function later(a: Block, b: Block): Block {
  const va = scalarValue(a);
  const vb = scalarValue(b);
  const ta = Date.parse(va);
  const tb = Date.parse(vb);
  const dates = !Number.isNaN(ta) && !Number.isNaN(tb);
  if (dates && ta !== tb) return tb > ta ? b : a;
  if (!dates && va !== vb) return vb > va ? b : a;
  return text(b.lines) > text(a.lines) ? b : a;
}

/**
 * Claude Code (2.1.214 on) stamps each new memory with the session that wrote it,
 * `originSessionId`, beside `modified`. Two branches that wrote the same memory (an add/add) hold
 * two stamps: the memory's first writer is the side whose `modified` is earlier; the same instant,
 * or no dates, is decided by the text, so the result does not depend on which side is ours.
 */
function firstWriter(a: Block, b: Block, aModified: Block | undefined, bModified: Block | undefined): Block {
  const ta = aModified ? Date.parse(scalarValue(aModified)) : Number.NaN;
  const tb = bModified ? Date.parse(scalarValue(bModified)) : Number.NaN;
  if (!Number.isNaN(ta) && !Number.isNaN(tb) && ta !== tb) return ta < tb ? a : b;
  return text(b.lines) < text(a.lines) ? b : a;
}

function mergeYaml(o: readonly Line[], a: readonly Line[], b: readonly Line[], markerSize: number, conflicts: Conflict[]): OutLine[] {
  const merged = mergeMapping(o, a, b, 0, markerSize, conflicts, []);
  if (merged) return merged;
  // Not a mapping we can take apart: merge the frontmatter as lines.
  return mergeBody(a, o, b, markerSize, 'frontmatter', conflicts, 2);
}

function mergeMapping(o: readonly Line[], a: readonly Line[], b: readonly Line[], indent: number, markerSize: number, conflicts: Conflict[], path: string[]): OutLine[] | null {
  const oB = blocksOf(o, indent);
  const aB = blocksOf(a, indent);
  const bB = blocksOf(b, indent);
  if (!oB || !aB || !bB) return null;
  const oM = new Map(oB.map((x) => [x.key, x]));
  const aM = new Map(aB.map((x) => [x.key, x]));
  const bM = new Map(bB.map((x) => [x.key, x]));

  type Pick = { from: 'a' | 'b'; block: Block } | { merged: OutLine[] } | null;
  const pick = (key: string): Pick => {
    const ob = oM.get(key);
    const ab = aM.get(key);
    const bb = bM.get(key);
    const [ot, at, bt] = [ob && text(ob.lines), ab && text(ab.lines), bb && text(bb.lines)];
    if (!ab && !bb) return null;
    if (!ab) return bt === ot ? null : { from: 'b', block: bb! };
    if (!bb) return at === ot ? null : { from: 'a', block: ab };
    if (at === bt || bt === ot) return { from: 'a', block: ab };
    if (at === ot) return { from: 'b', block: bb };
    if (key === 'modified') {
      const w = later(ab, bb);
      return { from: w === ab ? 'a' : 'b', block: w };
    }
    if (key === 'originSessionId') {
      const w = firstWriter(ab, bb, aM.get('modified'), bM.get('modified'));
      return { from: w === ab ? 'a' : 'b', block: w };
    }
    const label = [...path, key].join('.') || 'frontmatter';
    // A nested mapping (e.g. metadata:) with the same key line merges key by key.
    const header = (x: Block) => x.lines[0]!.text;
    if (ob && header(ab) === header(bb) && header(ob) === header(ab) && key !== '') {
      const children = (x: Block) => x.lines.slice(1);
      const firstChild = children(ab).find((l) => l.text.trim() !== '' && !l.text.trim().startsWith('#'));
      const childIndent = firstChild ? indentOf(firstChild.text) : -1;
      if (childIndent > indent) {
        const inner = mergeMapping(children(ob), children(ab), children(bb), childIndent, markerSize, conflicts, [...path, key]);
        if (inner) return { merged: [fromOurs(ab.lines[0]!), ...inner] };
      }
    }
    const c: Conflict = { label, reason: ot === undefined ? 'added on both sides with different values' : 'edited on both sides' };
    conflicts.push(c);
    return { merged: conflictBlock(markerSize, c, ab.lines.map(fromOurs), bb.lines.map(fromTheirs)) };
  };

  // Ours' key order; each key only theirs has goes after the key before it on their side (the
  // start for their first), past the keys ours added right there.
  const order = new Chain<string>((key) => aM.has(key) && !oM.has(key));
  const placed = new Map<string, Link<string>>();
  for (const x of aB) placed.set(x.key, order.push(x.key));
  let after: Link<string> | null = null;
  for (const x of bB) {
    let link = placed.get(x.key);
    if (!link) {
      link = order.insertAfter(after, x.key);
      placed.set(x.key, link);
    }
    after = link;
  }

  const out: OutLine[] = [];
  for (const key of order.values()) {
    const p = pick(key);
    if (!p) continue;
    if ('merged' in p) pushAll(out, p.merged);
    else for (const l of p.block.lines) out.push(p.from === 'a' ? fromOurs(l) : fromTheirs(l));
  }
  return out;
}

// ---- body --------------------------------------------------------------------------------------

/**
 * Line diff3 where lines inserted at the same place on both sides are all kept, ours' then
 * theirs' (an agent appends a sentence or a list item to a topic far more often than it rewrites
 * one): only lines that both sides changed conflict, and the label says whether each side added
 * or edited them.
 */
export function mergeBody(a: readonly Line[], o: readonly Line[], b: readonly Line[], markerSize: number, name: string, conflicts: Conflict[], firstLine = 1): OutLine[] {
  const t = (ls: readonly Line[]) => ls.map((l) => l.text);
  const [at, ot, bt] = [t(a), t(o), t(b)];
  const out: OutLine[] = [];
  for (const r of diff3Regions(at, ot, bt)) {
    if (r.kind === 'same' || r.kind === 'ours') for (let i = r.a[0]; i < r.a[1]; i++) out.push(fromOurs(a[i]!));
    else if (r.kind === 'theirs') for (let i = r.b[0]; i < r.b[1]; i++) out.push(fromTheirs(b[i]!));
    else {
      const ax = a.slice(...r.a);
      const ox = ot.slice(...r.o);
      const bx = b.slice(...r.b);
      if (sameLines(t(ax), t(bx))) {
        for (const l of ax) out.push(fromOurs(l));
        continue;
      }
      const ga = insertionsOnly(ox, t(ax));
      const gb = insertionsOnly(ox, t(bx));
      if (ga && gb) {
        pushAll(out, weaveInsertions(ax, ox, bx, ga, gb));
        continue;
      }
      const [from, to] = [firstLine + r.a[0], firstLine + r.a[1] - 1];
      const where = to <= from ? `line ${from}` : `lines ${from}-${to}`;
      const c: Conflict = { label: `${name} ${where}`, reason: ga ? 'added in ours, edited in theirs' : gb ? 'edited in ours, added in theirs' : 'edited on both sides' };
      conflicts.push(c);
      pushAll(out, conflictBlock(markerSize, c, ax.map(fromOurs), bx.map(fromTheirs)));
    }
  }
  return out;
}

const LIST_ITEM_RE = /^[ \t]*(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/;

/**
 * Both sides only inserted lines into the base lines `o` (gaps: for each place, the indices of the
 * lines inserted there): at each place ours' lines, then theirs' that ours does not already have.
 * A line both added is kept once; theirs' blank lines stay (they part paragraphs) unless all
 * theirs adds at that place is blank.
 */
function weaveInsertions(a: readonly Line[], o: string[], b: readonly Line[], ga: number[][], gb: number[][]): OutLine[] {
  const out: OutLine[] = [];
  let ai = 0;
  for (let g = 0; g <= o.length; g++) {
    const mine = ga[g]!.map((i) => a[i]!);
    for (const l of mine) out.push(fromOurs(l));
    const seen = new Set(mine.map((l) => l.text).filter((x) => x.trim() !== ''));
    let theirs = gb[g]!.map((i) => b[i]!).filter((l) => !seen.has(l.text));
    // Items added to the end of one list stay one list: no blank line between ours' and theirs'.
    const firstText = theirs.find((l) => l.text.trim() !== '')?.text;
    if (mine.length > 0 && LIST_ITEM_RE.test(mine[mine.length - 1]!.text) && firstText !== undefined && LIST_ITEM_RE.test(firstText)) {
      theirs = theirs.slice(theirs.findIndex((l) => l.text.trim() !== ''));
    }
    if (theirs.some((l) => l.text.trim() !== '')) for (const l of theirs) out.push(fromTheirs(l));
    ai += mine.length;
    if (g < o.length) out.push(fromOurs(a[ai++]!));
  }
  return out;
}
