// The commit date of each line of the memory files under a folder, for every file at once: one
// `git log -p` over the folder's history, replayed here, where `git blame` took one process per
// file (issue 29: 45 blames for a single finding). The replay follows what blame follows: each
// commit's changes against each of its parents (a line a merge took from a side branch keeps that
// branch's date), renames inside the folder, and the history simplified to the folder as blame
// simplifies it to a file. The text linted (which --fix, --staged or an editor may have changed)
// is then matched line by line against the committed text: what is not committed has no date.
// In a shallow clone the oldest commit fetched (git decorates it "grafted") stands for all the
// history cut off below it: blame marks the lines it holds `boundary`; here they are ShallowDate,
// committed on or before that commit's date, their own date unknown.
import { git } from './run.js';
import type { GitContext } from './repo.js';

/** A file as the newest commit that touched it left it: its lines and each line's commit date. */
export interface CommittedLines {
  lines: string[];
  /**
   * YYYY-MM-DD in the committer's time zone, one per line; `<YYYY-MM-DD` for a line a shallow
   * clone's boundary commit holds (committed that day or before, which day unknown).
   */
  dates: string[];
}

/**
 * A committed line git cannot date: a shallow clone's history stops at the commit holding it
 * (`git blame` calls it `boundary`). It was committed on `upTo` or before; which day is unknown.
 */
export interface ShallowDate {
  shallow: true;
  upTo: string;
}

/** A line's commit date (YYYY-MM-DD), or, past a shallow clone's boundary, the latest it can be. */
export type LineDate = string | ShallowDate;

/** Whether a line's date is only a shallow clone's boundary (an upper bound, not the day). */
export const isShallowDate = (d: LineDate | undefined): d is ShallowDate => typeof d === 'object';

/**
 * The committed lines of every file under `pathspec` (repository-relative folders) at HEAD, keyed
 * by repository-relative path: one `git log` however many files there are. Empty when there is no
 * history (no commit yet, a path git refuses).
 */
export function committedLines(at: GitContext, pathspec: string[]): Map<string, CommittedLines> {
  // -m: a merge's changes against each parent; --text: a file .gitattributes calls binary is
  // still lines; --no-textconv / --no-ext-diff: no driver the repository names runs (contract §14).
  // %D with every ref left out names only "grafted" (a shallow clone's boundary) and HEAD.
  const args = ['-c', 'core.quotePath=false', 'log', '--reverse', '--topo-order', '--parents', '-m', '-M', '--text', '--no-color', '--no-ext-diff', '--no-textconv', '--no-show-signature', '--src-prefix=a/', '--dst-prefix=b/', '-U0', '--decorate-refs-exclude=*', '--format=%x01%H %P %cI %x02%D', 'HEAD', '--', ...pathspec];
  let out: string;
  try {
    out = git(args, at);
  } catch {
    return new Map();
  }
  return replayLog(out);
}

interface FileDiff {
  from: string | null;
  to: string | null;
  /** [old start, old count, new lines] per hunk, in order (-U0: no context lines). */
  hunks: Array<[number, number, string[]]>;
}

interface CommitRecord {
  hash: string;
  parents: string[];
  date: string;
  /** One list of file changes per parent (a root commit: one, against nothing). */
  diffs: FileDiff[][];
}

/**
 * The records of `git log --format=%x01%H %P %cI %x02%D -m -U0 -p`, a merge's once per parent,
 * joined. A shallow clone's boundary commit (%D says "grafted") is dated `<YYYY-MM-DD`.
 */
export function parseLog(out: string): CommitRecord[] {
  const records: CommitRecord[] = [];
  let diffs: FileDiff[] = [];
  let file: FileDiff | null = null;
  let hunk: string[] | null = null;
  // Line by line with indexOf, no array of every line of the output: a new file's diff holds
  // each of its lines, and each added line is cut from the output once, without its `+`.
  for (let from = 0; from <= out.length; ) {
    const lf = out.indexOf('\n', from);
    const end = lf < 0 ? out.length : lf;
    const at = from;
    from = end + 1;
    if (hunk && out.charCodeAt(at) === 0x2b) {
      hunk.push(out.slice(at + 1, end));
      continue;
    }
    const line = out.slice(at, end);
    if (hunk) {
      if (line.startsWith('-') || line.startsWith('\\')) continue;
      hunk = null;
    }
    if (line.startsWith('\x01')) {
      const mark = line.indexOf('\x02');
      const words = line.slice(1, mark < 0 ? undefined : mark).split(' ').filter((w) => w !== '');
      const grafted = mark >= 0 && line.slice(mark + 1).split(', ').includes('grafted');
      const hash = words[0]!;
      const last = records[records.length - 1];
      diffs = [];
      file = null;
      const day = oneByte((words[words.length - 1] ?? '').slice(0, 10));
      if (last && last.hash === hash) last.diffs.push(diffs);
      else records.push({ hash, parents: words.slice(1, -1), date: grafted ? `<${day}` : day, diffs: [diffs] });
    } else if (line.startsWith('diff --git ')) {
      file = { from: null, to: null, hunks: [] };
      // Named again by ---/+++ or rename lines when it changed; this reading covers the rest.
      const both = line.slice('diff --git '.length);
      const half = (both.length - 1) / 2;
      if (Number.isInteger(half) && both.startsWith('a/') && both.slice(half + 1, half + 3) === 'b/' && both.slice(2, half) === both.slice(half + 3)) file.from = file.to = both.slice(2, half);
      diffs.push(file);
    } else if (!file) continue;
    else if (line.startsWith('--- ')) file.from = diffPath(line.slice(4), 'a/');
    else if (line.startsWith('+++ ')) file.to = diffPath(line.slice(4), 'b/');
    else if (line.startsWith('rename from ')) file.from = unquote(line.slice('rename from '.length));
    else if (line.startsWith('rename to ')) file.to = unquote(line.slice('rename to '.length));
    else if (line.startsWith('new file mode')) file.from = null;
    else if (line.startsWith('deleted file mode')) file.to = null;
    else if (line.startsWith('@@ ')) {
      const m = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@/.exec(line);
      if (!m) continue;
      hunk = [];
      file.hunks.push([Number(m[1]), m[2] === undefined ? 1 : Number(m[2]), hunk]);
    }
  }
  return records;
}

/**
 * The string stored one byte a character when none of its characters is past U+00FF (else as
 * it is). A slice of git's output is stored two bytes a character when the output holds any wider
 * character (a diff's text), and so is every message that names the date: twice the memory, and a
 * slow join of the report.
 */
function oneByte(s: string): string {
  return LATIN1_ONLY.test(s) ? Buffer.from(s, 'latin1').toString('latin1') : s;
}

const LATIN1_ONLY = /^[\u0000-\u00ff]*$/;

function diffPath(s: string, prefix: string): string | null {
  if (s === '/dev/null') return null;
  // git ends a name holding a space with a tab.
  const name = unquote(s.endsWith('\t') ? s.slice(0, -1) : s);
  return name.startsWith(prefix) ? name.slice(prefix.length) : name;
}

const ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };

/** A path as git quotes one holding a control character, a quote or a backslash ("a\tb", octal bytes). */
export function unquote(s: string): string {
  if (!s.startsWith('"') || !s.endsWith('"') || s.length < 2) return s;
  const bytes: number[] = [];
  const body = s.slice(1, -1);
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== '\\') {
      bytes.push(...Buffer.from(c, 'utf8'));
      continue;
    }
    const n = body[i + 1] ?? '';
    if (/[0-7]/.test(n)) {
      bytes.push(parseInt(body.slice(i + 1, i + 4), 8));
      i += 3;
    } else {
      bytes.push(ESCAPES[n] ?? n.charCodeAt(0));
      i += 1;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** A line taken from no parent: the commit's own. */
const OWN = null;
type Dates = Array<string | null>;
interface State {
  lines: string[];
  dates: Dates;
}

/** The file after a change, each line dated from `base` or, for a line the change wrote, `own`. */
function apply(base: State | undefined, hunks: FileDiff['hunks'], own: string | null): State {
  const lines: string[] = [];
  const dates: Dates = [];
  const oldLines = base?.lines ?? [];
  const oldDates = base?.dates ?? [];
  let pos = 0;
  for (const [start, count, added] of hunks) {
    // "-a,0": nothing removed, the lines go after line a; "-a,b": lines a..a+b-1 replaced.
    const at = count === 0 ? start : start - 1;
    for (; pos < at && pos < oldLines.length; pos++) {
      lines.push(oldLines[pos]!);
      dates.push(oldDates[pos] ?? null);
    }
    pos = at + count;
    // Indexed: a new file's one hunk holds all its lines, read once, before V8 optimises this.
    for (let k = 0; k < added.length; k++) {
      lines.push(added[k]!);
      dates.push(own);
    }
  }
  for (; pos < oldLines.length; pos++) {
    lines.push(oldLines[pos]!);
    dates.push(oldDates[pos] ?? null);
  }
  return { lines, dates };
}

/** One parent's view of a commit: its files, changed as the diff against that parent says. */
function changed(base: Map<string, State>, diffs: FileDiff[], own: string | null): { files: Map<string, State>; touched: Set<string> } {
  const files = new Map(base);
  const touched = new Set<string>();
  for (const d of diffs) if (d.from !== null && d.from !== d.to) files.delete(d.from);
  for (const d of diffs) {
    if (d.to === null) continue;
    files.set(d.to, apply(d.from === null ? undefined : base.get(d.from), d.hunks, own));
    touched.add(d.to);
  }
  return { files, touched };
}

/**
 * The committed lines at the tip of `git log --reverse --topo-order --parents -m -U0 -p`: each
 * line dated by the commit that wrote it, as blame dates it. A line of a merge that one of its
 * parents holds at the same place (the diff against that parent keeps it) takes that parent's
 * date, the first parent first; a line no parent holds is the merge's own.
 */
export function replayLog(out: string): Map<string, CommittedLines> {
  const records = parseLog(out);
  const children = new Map<string, number>();
  for (const r of records) for (const p of r.parents) children.set(p, (children.get(p) ?? 0) + 1);
  const states = new Map<string, Map<string, State>>();
  let tip = new Map<string, State>();
  for (const r of records) {
    const bases = r.parents.map((p) => states.get(p) ?? new Map<string, State>());
    let files: Map<string, State>;
    if (bases.length <= 1) files = changed(bases[0] ?? new Map(), r.diffs[0] ?? [], r.date).files;
    else {
      // Each parent's reading of the merge, its own lines left undated; the first parent's files.
      const views = bases.map((b, i) => changed(b, r.diffs[i] ?? [], OWN));
      files = views[0]!.files;
      for (const path of views[0]!.touched) {
        const first = files.get(path)!;
        const dates = first.dates.map((d, j) => {
          for (const v of views) {
            const other = v.touched.has(path) ? v.files.get(path) : bases[views.indexOf(v)]!.get(path);
            const day = other && other.lines.length === first.lines.length ? other.dates[j] : null;
            if (day) return day;
          }
          return d ?? r.date;
        });
        files.set(path, { lines: first.lines, dates });
      }
    }
    states.set(r.hash, files);
    tip = files;
    for (const p of r.parents) {
      const left = (children.get(p) ?? 1) - 1;
      children.set(p, left);
      if (left === 0) states.delete(p);
    }
  }
  const result = new Map<string, CommittedLines>();
  for (const [path, s] of tip) result.set(path, { lines: s.lines, dates: s.dates.map((d) => d ?? '') });
  return result;
}

/**
 * For each line of `text` (1-based; [0] unused), the date of the committed line it is, or
 * undefined for a line not committed: the lines are matched against the committed ones as a diff
 * matches them (common lines in order), as `git blame --contents` reads a text that differs. A
 * line past a shallow clone's boundary is a ShallowDate.
 */
export function datesForText(committed: CommittedLines | undefined, text: string): Array<LineDate | undefined> {
  const dates: Array<LineDate | undefined> = [];
  if (!committed) return dates;
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const match = matchLines(committed.lines, lines);
  for (let j = 0; j < lines.length; j++) {
    const i = match[j]!;
    const d = i >= 0 ? committed.dates[i] : undefined;
    dates[j + 1] = !d ? undefined : d.startsWith('<') ? { shallow: true, upTo: d.slice(1) } : d;
  }
  return dates;
}

/**
 * For each line of b, the index of the line of a it is, or -1: common prefix and suffix, then the
 * lines that occur once on each side in increasing order (patience diff), recursively; what stays
 * unmatched between them is matched by a longest common subsequence when small.
 */
export function matchLines(a: readonly string[], b: readonly string[]): Int32Array {
  const match = new Int32Array(b.length).fill(-1);
  const stack: Array<[number, number, number, number]> = [[0, a.length, 0, b.length]];
  while (stack.length > 0) {
    let [a0, a1, b0, b1] = stack.pop()!;
    while (a0 < a1 && b0 < b1 && a[a0] === b[b0]) match[b0++] = a0++;
    while (a0 < a1 && b0 < b1 && a[a1 - 1] === b[b1 - 1]) match[--b1] = --a1;
    if (a0 === a1 || b0 === b1) continue;
    const anchors = uniqueCommon(a, a0, a1, b, b0, b1);
    if (anchors.length === 0) {
      if ((a1 - a0) * (b1 - b0) <= 250_000) lcs(a, a0, a1, b, b0, b1, match);
      continue;
    }
    let pa = a0;
    let pb = b0;
    for (const [i, j] of anchors) {
      match[j] = i;
      stack.push([pa, i, pb, j]);
      pa = i + 1;
      pb = j + 1;
    }
    stack.push([pa, a1, pb, b1]);
  }
  return match;
}

/** The lines occurring once in a[a0,a1) and once in b[b0,b1), as pairs in the longest increasing run. */
function uniqueCommon(a: readonly string[], a0: number, a1: number, b: readonly string[], b0: number, b1: number): Array<[number, number]> {
  const inA = new Map<string, number>();
  for (let i = a0; i < a1; i++) inA.set(a[i]!, inA.has(a[i]!) ? -1 : i);
  const inB = new Map<string, number>();
  for (let j = b0; j < b1; j++) if ((inA.get(b[j]!) ?? -1) >= 0) inB.set(b[j]!, inB.has(b[j]!) ? -1 : j);
  const pairs: Array<[number, number]> = [];
  for (const [line, j] of inB) if (j >= 0) pairs.push([inA.get(line)!, j]);
  pairs.sort((x, y) => x[1] - y[1]);
  // Longest increasing subsequence of the a-indices (patience sorting).
  const tails: number[] = [];
  const prev = new Int32Array(pairs.length).fill(-1);
  for (let k = 0; k < pairs.length; k++) {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pairs[tails[mid]!]![0] < pairs[k]![0]) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) prev[k] = tails[lo - 1]!;
    tails[lo] = k;
  }
  const out: Array<[number, number]> = [];
  for (let k = tails.length > 0 ? tails[tails.length - 1]! : -1; k >= 0; k = prev[k]!) out.push(pairs[k]!);
  return out.reverse();
}

function lcs(a: readonly string[], a0: number, a1: number, b: readonly string[], b0: number, b1: number, match: Int32Array): void {
  const n = a1 - a0;
  const m = b1 - b0;
  const len = new Uint32Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      len[i * (m + 1) + j] = a[a0 + i] === b[b0 + j] ? len[(i + 1) * (m + 1) + j + 1]! + 1 : Math.max(len[(i + 1) * (m + 1) + j]!, len[i * (m + 1) + j + 1]!);
  for (let i = 0, j = 0; i < n && j < m; ) {
    if (a[a0 + i] === b[b0 + j]) match[b0 + j++] = a0 + i++;
    else if (len[(i + 1) * (m + 1) + j]! >= len[i * (m + 1) + j + 1]!) i++;
    else j++;
  }
}
