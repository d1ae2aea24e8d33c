// Stale references, pure: the paths and commit ids a memory names (where, in which line), and what
// became of a path the revision checked no longer holds, from the renames and deletions git
// reports (src/git/lost-paths.ts). Shared by no-stale-reference, `memlint diff` and consolidate.
import type { LossEvent } from '../git/lost-paths.js';
import { blockModel, codeLineSet } from '../memdir/blocks.js';
import { splitLines } from '../memdir/lines.js';
import { bodyStart, lineOf } from './content-scan.js';

export type { LossEvent } from '../git/lost-paths.js';

export interface PathReference {
  /** 1-based line and column of the path as written (a leading "./" included). */
  line: number;
  column: number;
  /** The text as written, e.g. "./src/a.ts" or "src/billing/". */
  written: string;
  /** Repository-relative form: no "./", a folder without its final slash. */
  path: string;
  folder: boolean;
}

export interface CommitReference {
  line: number;
  column: number;
  hex: string;
}

// A path with a folder in it: "src/a.ts", "docs/guide/", "./scripts/build.mjs". A file name alone
// ("a.ts") names no place; "a/b" without an extension or final slash is as often a pair of words
// ("read/write", "client/server") as a folder; and a one-level folder ("data/", "icons/") is as
// often a folder relative to a tree drawn around it, or one kept out of git, as the repository's
// own (measured on real memory: docs/rules-content.md): none counts.
const PATH_TOKEN = /(?<![\w@/.:~$%-])(\.\/)?((?:[\w@.-]+\/)+[\w@.-]*\.[A-Za-z][A-Za-z0-9]{0,7}|(?:[\w@.-]+\/){2,})(?![\w/@-])/g;
// A line that records a move or a removal itself ("a/ → b/", "renamed …", "整层删除", "… を削除",
// "no longer exists") tells the past on purpose, as a daily log does: its paths are not stale.
const RECORDS_CHANGE = /→|->|=>|⇒|\b(?:renamed|moved|deleted|removed|dropped|retired|merged|replaced|migrated|split)\b|\b(?:no longer exists|does not exist|doesn't exist)\b|删除|删掉|移除|迁移|重命名|改名|移到|移至|合并|废弃|削除|廃止|移動|リネーム|統合|存在しない/i;
// A path the repository deleted (not renamed), named in a story of what happened then: a line
// that tells the past ("May 19 left scripts/x.py", "tests gated on a folder created by …",
// "**Why:** … the old job was …"), or a file kept as a history (session_history.md,
// an archive, a changelog, a progress log). The path was true when it was written and the memory
// says so; a renamed path is still reported, since its new place helps the reader (issue 29's third
// and sixth held-out sets).
const TELLS_PAST = /\b(?:left|added|created|introduced|hardcoded|generated|wrote|was|were|had|used[ \t]+to|didn't|did[ \t]+not|accumulated|shipped)\b|\*\*Why:?\*\*:?|済み|[しっ]た(?:[。、）)]|$)/i;
const HISTORY_FILE = /(?:^|[/_-])(?:history|archive|changelog|session[_-]?log|progress)(?:[_-][^/]*)?\.md$/i;

// A path the line itself names as gone or former: "originally in a standalone x.js, absorbed into
// y.js", "links the now-broken `docs/old/` (404 …)". The memory knows; neither stale nor to rewrite.
const FORMER_BEFORE = /(?:\b(?:originally|formerly|previously|once|former|legacy|deprecated|obsolete|outdated|removed|deleted|archived|dead|now[- ]broken|broken)\b|\bat[ \t]+the[ \t]+time\b)[^.;:!?\n]{0,40}$/iu;
const FORMER_AFTER = /^[^\s(]*[ \t]*\((?:404|gone|deleted|removed|archived|dead)\b/iu;

/** Whether the line names the path at `column` (1-based) as one that is gone or former. */
export function namedAsFormer(line: string, column: number, written: string): boolean {
  return FORMER_BEFORE.test(line.slice(0, column - 1)) || FORMER_AFTER.test(line.slice(column - 1 + written.length));
}

/** Whether a deleted path in this line of this file is history rather than a stale pointer. */
export function toldAsHistory(line: string, file: string): boolean {
  return TELLS_PAST.test(line) || HISTORY_FILE.test(file);
}
const STRUCK = /~~[^~]+~~/g;
const URL = /\b[a-z][\w+.-]*:\/\/\S+|\bwww\.\S+/gi;
const HEX = /(?<![\w/#@.-])([0-9a-f]{7,40})(?![\w-])/g;

function spans(re: RegExp, line: string): Array<[number, number]> {
  return [...line.matchAll(re)].map((m) => [m.index!, m.index! + m[0].length]);
}

/**
 * The repository paths a memory's lines name, outside fenced code (`inCode`, as the other content
 * rules skip it), URLs and link destinations. A path with "..", a home folder or a drive is no repository path.
 */
export function pathReferences(lines: string[], from: number, inCode: (line: number) => boolean): PathReference[] {
  const out: PathReference[] = [];
  for (let l = from; l <= lines.length; l++) {
    const line = lines[l - 1]!;
    if (!line.includes('/') || inCode(l) || RECORDS_CHANGE.test(line)) continue;
    const urls = line.includes('://') || line.includes('www.') ? spans(URL, line) : [];
    // Struck-through text is already marked as no longer true.
    const struck = line.includes('~~') ? spans(STRUCK, line) : [];
    for (const m of line.matchAll(PATH_TOKEN)) {
      const start = m.index!;
      if (urls.some(([a, b]) => start >= a && start < b) || struck.some(([a, b]) => start >= a && start < b)) continue;
      // A link destination is relative to the memory file, not to the repository.
      if (line.slice(0, start).endsWith('](')) continue;
      let written = m[0];
      // Sentence punctuation after a folder ("see docs/." is not a file ".").
      const body = m[2]!;
      if (body.split('/').some((seg) => seg === '..' || seg === '.')) continue;
      if (/^[.-]/.test(body) && !/^\.[\w-]+\//.test(body)) continue;
      const folder = body.endsWith('/');
      let path = folder ? body.slice(0, -1) : body;
      if (!folder && /\.$/.test(path)) continue;
      written = (m[1] ?? '') + body;
      out.push({ line: l, column: start + 1, written, path, folder });
    }
  }
  return out;
}

/** The paths a whole memory text names (its body, fenced code aside), as the rule reads them. */
export function memoryPathReferences(text: string): PathReference[] {
  const split = splitLines(text);
  const starts = [0, ...split.map((l) => l.offset)];
  const code = codeLineSet(blockModel(text));
  return pathReferences(
    split.map((l) => l.text),
    lineOf(starts, bodyStart(text)),
    (l) => code.has(l),
  );
}

/** Commit-id-shaped words (7-40 hex, a letter and a digit among them), outside fenced code and URLs. */
export function commitReferences(lines: string[], from: number, inCode: (line: number) => boolean): CommitReference[] {
  const out: CommitReference[] = [];
  for (let l = from; l <= lines.length; l++) {
    const line = lines[l - 1]!;
    if (inCode(l)) continue;
    const urls = line.includes('://') ? spans(URL, line) : [];
    for (const m of line.matchAll(HEX)) {
      const hex = m[1]!;
      if (!/[a-f]/.test(hex) || !/\d/.test(hex)) continue;
      if (urls.some(([a, b]) => m.index! >= a && m.index! < b)) continue;
      out.push({ line: l, column: m.index! + 1, hex });
    }
  }
  return out;
}

export type PathFate =
  /** `certain`: every rename on the way was (LossEvent.certain); else the new path is only likely. */
  | { kind: 'renamed'; to: string; certain: boolean; commit: string | null; date?: string }
  | { kind: 'deleted'; commit: string | null; date?: string };

/** The events indexed for lookups: newest first per old path. */
export interface LossIndex {
  newest: Map<string, LossEvent>;
  /** Every event, newest first, for folder lookups. */
  all: LossEvent[];
  /** By folder (made on the first folder asked): the newest event of each path under it, and the newest event of all. */
  folders?: Map<string, { under: LossEvent[]; newest: LossEvent }>;
}

/** `events` newest first: the uncommitted change's, then history's. */
export function indexLosses(events: LossEvent[]): LossIndex {
  const newest = new Map<string, LossEvent>();
  for (const e of events) if (!newest.has(e.from)) newest.set(e.from, e);
  return { newest, all: events };
}

/** What left a folder: each path's newest event (in the order of `newest`) and the newest event of all; undefined when none. */
export function lossesUnder(losses: LossIndex, folder: string): { under: LossEvent[]; newest: LossEvent } | undefined {
  if (!losses.folders) {
    // Each event under each of its path's folders, once per path: one pass, where a search per
    // folder asked read every event (a memory naming thousands of folders).
    const folders = new Map<string, { under: LossEvent[]; newest: LossEvent }>();
    for (const e of losses.newest.values()) {
      for (let i = e.from.indexOf('/'); i >= 0; i = e.from.indexOf('/', i + 1)) {
        const name = e.from.slice(0, i);
        const entry = folders.get(name);
        if (entry) entry.under.push(e);
        else folders.set(name, { under: [e], newest: e });
      }
    }
    // `newest` keeps its paths in the order of their newest events in `all`, so the first event
    // filed under a folder is the newest under it, as a search of `all` finds it.
    losses.folders = folders;
  }
  return losses.folders.get(folder);
}

/**
 * What became of a path the revision lacks: renamed (followed through later renames to a path
 * that is present), or deleted (the deleting commit named). null when the repository never held
 * it (a plan, another repository) or history cannot tell. A rename on the way not settled yet
 * (LossEvent.certain undefined) counts as loose and goes into `unsettled`: settled
 * (settleRenames), the same question has its final answer.
 */
export function fateOf(ref: { path: string; folder: boolean }, losses: LossIndex, present: (path: string, folder: boolean) => boolean, unsettled?: LossEvent[]): PathFate | null {
  return ref.folder ? folderFate(ref.path, losses, present) : fileFate(ref.path, losses, present, new Set(), unsettled);
}

function fileFate(path: string, losses: LossIndex, present: (path: string, folder: boolean) => boolean, seen: Set<string>, unsettled?: LossEvent[]): PathFate | null {
  const e = losses.newest.get(path);
  if (!e || seen.has(path)) return null;
  seen.add(path);
  if (e.status === 'R' && e.certain === undefined) unsettled?.push(e);
  const stamp = { commit: e.commit, ...(e.date ? { date: e.date } : {}) };
  if (e.status === 'D') return { kind: 'deleted', ...stamp };
  if (present(e.to!, false)) return { kind: 'renamed', to: e.to!, certain: e.certain === true, ...stamp };
  // Renamed again, or deleted later: what became of the new path is what became of this one.
  const later = fileFate(e.to!, losses, present, seen, unsettled);
  return later?.kind === 'renamed' && e.certain !== true ? { ...later, certain: false } : later;
}

function folderFate(folder: string, losses: LossIndex, present: (path: string, folder: boolean) => boolean): PathFate | null {
  const prefix = `${folder}/`;
  const lost = lossesUnder(losses, folder);
  if (!lost) return null;
  const { under, newest } = lost;
  const stamp = { commit: newest.commit, ...(newest.date ? { date: newest.date } : {}) };
  // The folder moved when every file that left it went to one other folder, under the same name.
  // A file edited in the move is one git no longer pairs (a deletion, its new copy an addition):
  // when each such file's name is in that folder now, the folder moved all the same, but only as
  // surely as the pairing of the new copies by name: a loose match, not a fix.
  let target: string | null = null;
  const unpaired: string[] = [];
  for (const e of under) {
    const rest = e.from.slice(prefix.length);
    if (e.status !== 'R') {
      unpaired.push(rest);
      continue;
    }
    if (!e.to!.endsWith(`/${rest}`)) return { kind: 'deleted', ...stamp };
    const to = e.to!.slice(0, -rest.length - 1);
    if (target !== null && to !== target) return { kind: 'deleted', ...stamp };
    target = to;
  }
  if (target === null || !present(target, true) || unpaired.some((rest) => !present(`${target}/${rest}`, false))) return { kind: 'deleted', ...stamp };
  return { kind: 'renamed', to: target, certain: unpaired.length === 0, ...stamp };
}

/** "in 3f9c2ab (2026-03-02)", or what the change not committed yet is called. */
export function whereLost(fate: PathFate, uncommitted: string): string {
  return fate.commit === null ? `by ${uncommitted}` : `in ${fate.commit.slice(0, 7)}${fate.date ? ` (${fate.date})` : ''}`;
}

/** The message for a stale path. */
export function stalePathMessage(ref: { path: string; folder: boolean }, fate: PathFate, uncommitted: string): string {
  const what = ref.folder ? `folder ${ref.path}/` : ref.path;
  if (fate.kind === 'deleted') return `${what} was deleted ${whereLost(fate, uncommitted)}: the memory points to a path that no longer exists`;
  const to = `${fate.to}${ref.folder ? '/' : ''}`;
  // A loose pairing says no more than git knows: the path is gone, and which file git pairs it with.
  return fate.certain
    ? `${what} was renamed to ${to} ${whereLost(fate, uncommitted)}: the memory points to a path that no longer exists`
    : `${what} was moved or removed ${whereLost(fate, uncommitted)}; git pairs it with ${to}, a loose match that --fix leaves to you: the memory points to a path that no longer exists`;
}

/** The path as the fix writes it: the new path in the form the memory wrote the old one ("./", final slash). */
export function rewritten(ref: PathReference, to: string): string {
  return `${ref.written.startsWith('./') ? './' : ''}${to}${ref.folder ? '/' : ''}`;
}
