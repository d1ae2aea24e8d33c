// Settling the conflict blocks a merge left, by a person's choice (`memlint resolve --ours |
// --theirs | --both`): pure, on the merged text. A block is what the driver (or git) wrote between
// `<<<<<<<` and `>>>>>>>`; the driver's labels name what conflicts (an index entry's target, a
// frontmatter key, a topic's lines), so a choice can be made for one entry.
import { splitLines } from '../memdir/lines.js';
import { parseEntry } from '../memdir/memory-index.js';
import { duplicateDetail, moveToTopicEdit } from '../memdir/hook-text.js';

export type Choice = 'ours' | 'theirs' | 'both';

export interface MarkedBlock {
  /** 1-based line of the opening marker. */
  line: number;
  /** What the opening marker's label names, when the driver wrote it: `ours (<what>: <reason>)`. */
  what: string | null;
  reason: string | null;
  ours: string[];
  theirs: string[];
  /** Offsets of the block in the text: from the opening marker to after the closing marker's line ending. */
  start: number;
  end: number;
  /** The line ending of the block's lines (the closing marker's, else the text's first). */
  eol: string;
}

/** The conflict blocks of a text (markers of at least `size`), in order; null when they are not well formed. */
export function markedBlocks(text: string, size = 7): MarkedBlock[] | null {
  const open = new RegExp(`^<{${size},}(?: (.*))?$`);
  const mark = (t: string, ch: string, n: number) => t.length >= n && t.slice(0, n) === ch.repeat(n) && (t.length === n || t[n] === ' ');
  const blocks: MarkedBlock[] = [];
  let cur: (MarkedBlock & { n: number; state: 'ours' | 'base' | 'theirs' }) | null = null;
  let lineNo = 0;
  for (const l of splitLines(text)) {
    lineNo++;
    if (cur === null) {
      const m = open.exec(l.text);
      if (m) {
        const n = l.text.length - (m[1] !== undefined ? m[1].length + 1 : 0);
        const label = /^ours \((.*): ([^:]*)\)$/.exec(m[1] ?? '');
        cur = { line: lineNo, what: label ? label[1]! : null, reason: label ? label[2]! : null, ours: [], theirs: [], start: l.offset, end: l.offset, eol: l.eol || '\n', n, state: 'ours' };
      } else if (/^>{7,}(?: |$)/.test(l.text)) return null;
      continue;
    }
    if (open.test(l.text) && l.text.startsWith('<'.repeat(cur.n))) return null;
    if (cur.state === 'ours' && mark(l.text, '|', cur.n)) cur.state = 'base';
    else if (cur.state !== 'theirs' && l.text === '='.repeat(cur.n)) cur.state = 'theirs';
    else if (cur.state === 'theirs' && mark(l.text, '>', cur.n)) {
      const { n: _n, state: _s, ...block } = cur;
      blocks.push({ ...block, end: l.offset + l.text.length + l.eol.length, eol: l.eol || cur.eol });
      cur = null;
    } else if (cur.state === 'ours') cur.ours.push(l.text);
    else if (cur.state === 'theirs') cur.theirs.push(l.text);
  }
  return cur === null ? blocks : null;
}

export interface TopicFile {
  /** The topic's path as the caller names it (memdir-relative for an index's entries). */
  rel: string;
  text: string;
}

export interface Settled {
  text: string;
  /** Blocks settled, and blocks left (not chosen, or a choice that cannot be made here). */
  settled: MarkedBlock[];
  /** Each left block with its 1-based line in the settled text. */
  left: Array<{ block: MarkedBlock; why: string | null; line: number; noBoth?: true }>;
  /** New texts of topic files that received a hook (`--both` on an index entry). */
  topics: Map<string, string>;
}

/**
 * Replace each block `pick` chooses for with the chosen side: ours' lines, theirs', or both (ours
 * then theirs). In an index (`index` true), `both` keeps ours' entry and moves theirs' hook into
 * the topic file, as `index-duplicate`'s quick fix does; `topicOf` gives that file's text (null: there
 * is none, and the block is left, since theirs' hook would have nowhere to go; a reason: the file
 * cannot take text now, and the block is left with it).
 */
export function settleBlocks(text: string, blocks: MarkedBlock[], pick: (b: MarkedBlock) => Choice | null, opts: { index: boolean; topicOf?: (key: string) => TopicFile | string | null }): Settled {
  const out: Settled = { text: '', settled: [], left: [], topics: new Map() };
  let at = 0;
  // A left block's line in the result: its own, less the lines the blocks settled above it gave up.
  let delta = 0;
  const lineIn = (b: MarkedBlock) => b.line + delta;
  for (const b of blocks) {
    const choice = pick(b);
    let lines: string[] | null = null;
    if (choice === 'ours') lines = b.ours;
    else if (choice === 'theirs') lines = b.theirs;
    else if (choice === 'both') {
      if (!opts.index) lines = [...b.ours, ...b.theirs];
      else {
        const kept = bothEntries(b, opts.topicOf ?? null, out.topics);
        if (!Array.isArray(kept)) out.left.push({ block: b, why: kept.why, line: lineIn(b), ...(kept.noBoth ? { noBoth: true as const } : {}) });
        else lines = kept;
      }
    } else out.left.push({ block: b, why: null, line: lineIn(b) });
    if (lines === null) continue;
    delta += lines.length - splitLines(text.slice(b.start, b.end)).length;
    out.text += text.slice(at, b.start) + lines.map((l) => l + b.eol).join('');
    at = b.end;
    out.settled.push(b);
  }
  out.text += text.slice(at);
  return out;
}

/** `--both` in an index: ours' lines, theirs' lines less each entry ours has, whose hook goes into its topic. A reason when it cannot. */
/**
 * Why `--both` can never settle an index block, or null: an entry one side alone holds, whose
 * topic file is not there (the merge deletes it with the other side's entry), would link to
 * nothing when kept. Which side is right is a person's call.
 */
export function bothRefused(b: MarkedBlock, topicOf: (key: string) => TopicFile | string | null): string | null {
  const ours = new Set(b.ours.map((l) => parseEntry(l)?.key).filter((k) => k !== undefined));
  const theirs = new Set(b.theirs.map((l) => parseEntry(l)?.key).filter((k) => k !== undefined));
  for (const key of [...[...ours].filter((k) => !theirs.has(k)), ...[...theirs].filter((k) => !ours.has(k))]) {
    if (topicOf(key) === null) return `${key} has no topic file here (the merge deletes it): --ours or --theirs chooses whether its entry stays`;
  }
  return null;
}

function bothEntries(b: MarkedBlock, topicOf: ((key: string) => TopicFile | string | null) | null, topics: Map<string, string>): string[] | { why: string; noBoth?: true } {
  const ours = new Map(b.ours.map((l) => parseEntry(l)).filter((e) => e !== undefined).map((e) => [e.key, e]));
  const refused = topicOf === null ? null : bothRefused(b, topicOf);
  if (refused !== null) return { why: refused, noBoth: true };
  const kept = [...b.ours];
  for (const line of b.theirs) {
    const e = parseEntry(line);
    const mine = e && ours.get(e.key);
    if (!e || !mine) {
      kept.push(line);
      continue;
    }
    const found = topicOf ? topicOf(e.key) : null;
    // A topic that cannot take text now (still in conflict itself): the reason, when theirs' hook needs it.
    const topic = typeof found === 'string' ? null : found;
    const detail = duplicateDetail(mine, e, topic ? (topics.get(topic.rel) ?? topic.text) : '');
    if (detail === '') continue;
    if (typeof found === 'string') return { why: found };
    if (!topic) return { why: `${e.key} has no topic file to receive theirs' hook: choose --ours or --theirs`, noBoth: true };
    const current = { path: topic.rel, text: topics.get(topic.rel) ?? topic.text };
    const edit = moveToTopicEdit(current, detail);
    if (edit) topics.set(topic.rel, current.text.slice(0, edit.start) + edit.text + current.text.slice(edit.end));
  }
  return kept;
}
