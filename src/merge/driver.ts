// The merge driver around the pure merges: picks the merge by the path's kind (STRATEGIES), decides
// whether the input can be trusted, and otherwise falls back to git's own line merge. Never loses a line: every path
// out of here either writes a merged text or leaves OURS in place and reports a conflict.
import { isUtf8 } from 'node:buffer';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, posix } from 'node:path';
import { isAgentMemdir, loadIndex, MAX_INDEX_LINES } from '../memdir/limits.js';
import { claudeFormat, type ClaudeFormat } from '../memdir/format.js';
import { configuredClaudeCode } from '../config.js';
import { entryIdentity } from '../memdir/memory-index.js';
import { isUtf16 } from '../memdir/lines.js';
import { blockModel } from '../memdir/blocks.js';
import { mergeIndex, sideLines } from './memory-index.js';
import { commonIndices, TooRepetitiveError } from './lines.js';
import { mergeLog } from './log.js';
import { hasConflictMarkers, splitConflictMarkers, stripBom, toLines, type DeletedEdited, type MarkedSides, type MergeResult } from './text.js';
import { mergeTopic } from './topic.js';
import { maskSecrets } from '../content/secret-patterns.js';
import { isSessionLogPath, pathKind, type PathKind } from '../memdir/kinds.js';

/** Files larger than this go to git's line merge (the structured merge is quadratic at worst). */
export const MAX_SEMANTIC_BYTES = 1 << 20;

export interface MergeInput {
  base: Buffer;
  ours: Buffer;
  theirs: Buffer;
  /** The path in the repository (git's %P): chooses the merge. */
  path: string;
  markerSize: number;
  /** Claude Code's format for the configured version (config `claudeCode`): the limit warning's numbers. The newest known when absent. */
  format?: ClaudeFormat;
  /** An index's additions from theirs after ours' entries (memlint adopt), not beside their neighbours. */
  theirsAfterOurs?: boolean;
  /** An index: for an entry deleted on one side and edited on the other, whether the merge deletes its topic file (mergeIndex). */
  topicGone?: ReadonlyMap<string, boolean>;
}

export interface MergeOutcome {
  /** The merged bytes, or null when OURS stays as it is (still a conflict). */
  output: Buffer | null;
  /** What is left in conflict (labels); empty when the merge is clean. */
  conflicts: string[];
  /** One line each, for stderr. */
  warnings: string[];
  method: 'semantic' | 'git-merge-file' | 'none';
  /** An index: the entries deleted on one side and edited on the other (whose topic files the driver then asks git about). */
  deletedEdited?: DeletedEdited[];
  /** The warning about Claude Code's limits, when there is one (the last of warnings): about output, not about a text settled from it. */
  limitWarning?: string;
}

/** The structured merge declined: git's line merge (git merge-file) must run instead. */
export interface NeedsLineMerge {
  lineMerge: true;
  reason: string;
}

/** What git merge-file gave, or null when git could not merge either (binary input). */
export type LineMergeResult = { output: Buffer; conflicts: number } | null;

/** The text of a UTF-8 buffer (a BOM kept as U+FEFF), or null when it is not valid UTF-8. */
function decode(buf: Buffer): string | null {
  // isUtf8 + toString rather than a fatal TextDecoder, whose construction the driver (started once
  // per merged file) would pay on every merge.
  return isUtf8(buf) ? buf.toString('utf8') : null;
}

function looksBinary(buf: Buffer): boolean {
  return buf.subarray(0, 8000).includes(0);
}

/**
 * The lines both sides share, in order: the base of an add/add merge, seen as a set. Two sides
 * may share several longest runs (`# Memory` then prose on one side, prose then `# Memory` on the
 * other: either line alone): the one taken must not depend on which side is OURS, or the merge
 * is clean one way and a conflict the other. The longest run found from each side, the smaller
 * text of the two.
 */
function syntheticBase(ours: string, theirs: string): string {
  const a = toLines(stripBom(ours).body).map((l) => l.text);
  const b = toLines(stripBom(theirs).body).map((l) => l.text);
  const fromOurs = commonIndices(a, b).map((i) => `${a[i]!}\n`).join('');
  const fromTheirs = commonIndices(b, a).map((i) => `${b[i]!}\n`).join('');
  return fromOurs <= fromTheirs ? fromOurs : fromTheirs;
}

/**
 * An add/add merge keeps what each side added, so a line both sides wrote, each at another place
 * ("Shared notes." before "Read first." on one side, after it on the other), came out twice. The
 * sides are merged as sets: a line that each side holds once is kept once, at its first place.
 * Blank lines, lines a side repeats, and code (the one Markdown model's reading) stay as merged.
 */
function onceEachShared(merged: string, ours: string, theirs: string): string {
  const once = (text: string) => {
    const seen = new Map<string, number>();
    for (const l of toLines(stripBom(text).body)) if (l.text.trim() !== '') seen.set(l.text, (seen.get(l.text) ?? 0) + 1);
    return seen;
  };
  const inOurs = once(ours);
  const inTheirs = once(theirs);
  const shared = (line: string) => inOurs.get(line) === 1 && inTheirs.get(line) === 1;
  const { bom, body } = stripBom(merged);
  const lines = toLines(body);
  const inMerged = new Map<string, number>();
  for (const l of lines) if (shared(l.text)) inMerged.set(l.text, (inMerged.get(l.text) ?? 0) + 1);
  // Most add/adds repeat nothing: the Markdown model is read only when a shared line is there twice.
  if (![...inMerged.values()].some((n) => n > 1)) return merged;
  const model = blockModel(merged);
  const placed = new Set<string>();
  const kept: string[] = [];
  lines.forEach((l, i) => {
    if (model.lines[i]?.kind !== 'code' && shared(l.text)) {
      if (placed.has(l.text)) return;
      placed.add(l.text);
    }
    kept.push(l.text + l.eol);
  });
  return bom + kept.join('');
}

/** The outcome of the fallback: git's line merge, or OURS left in place when git cannot merge. */
export function lineMergeOutcome(r: LineMergeResult, reason: string, path: string): MergeOutcome {
  if (!r) {
    return {
      output: null,
      conflicts: ['whole file'],
      warnings: [`memlint: ${path}: ${reason}, and git cannot merge it either: ours is left in place, resolve it by hand`],
      method: 'none',
    };
  }
  return {
    output: r.output,
    conflicts: r.conflicts > 0 ? [`${r.conflicts} line conflict${r.conflicts === 1 ? '' : 's'}`] : [],
    warnings: [`memlint: ${path}: ${reason}: merged line by line with git merge-file`],
    method: 'git-merge-file',
  };
}

const needs = (reason: string): NeedsLineMerge => ({ lineMerge: true, reason });

interface StrategyContext {
  path: string;
  markerSize: number;
  /** What conflictedInBase found in a criss-cross merge's virtual base. */
  conflictedInBase?: Set<string>;
  theirsAfterOurs?: boolean;
  topicGone?: ReadonlyMap<string, boolean>;
}

/** How one kind of memory file merges: three texts to one (pure). */
interface Strategy {
  merge(base: string, ours: string, theirs: string, context: StrategyContext): MergeResult;
  /**
   * The identities of what a criss-cross's virtual base holds inside its conflict blocks (not
   * common ground: both sides' versions meet as additions). Kinds without it merge the text
   * outside the blocks as the base.
   */
  conflictedInBase?(sides: MarkedSides): Set<string>;
  /** A warning about the merged text, beyond the merge's own notes. */
  warning?(result: MergeResult, path: string, format: ClaudeFormat | undefined): string | null;
}

const entryKeys = (text: string) => sideLines([text])[0]!.flatMap((l) => (l.entry ? [entryIdentity(l.entry)] : []));

/** The merge of each kind of file; other (not Markdown) has none: git's line merge. */
const STRATEGIES: Record<PathKind, Strategy | null> = {
  index: {
    merge: (base, ours, theirs, c) => mergeIndex(base, ours, theirs, { markerSize: c.markerSize, conflictedInBase: c.conflictedInBase, theirsAfterOurs: c.theirsAfterOurs, topicGone: c.topicGone }),
    conflictedInBase(sides) {
      const outside = new Set(entryKeys(sides.outside));
      return new Set([...entryKeys(sides.ours), ...entryKeys(sides.theirs)].filter((k) => !outside.has(k)));
    },
    warning: (result, path, format) => limitWarning(result.text, path, result.entries, format),
  },
  log: { merge: (base, ours, theirs, c) => mergeLog(base, ours, theirs, { session: isSessionLogPath(c.path) }) },
  topic: { merge: (base, ours, theirs, c) => mergeTopic(base, ours, theirs, { markerSize: c.markerSize, name: basename(c.path) }) },
  other: null,
};

/**
 * The structured merge of one memory file (pure): the outcome, or a request for git's line merge
 * when the input cannot be trusted (not a memory file, too large, binary, not UTF-8, conflict
 * markers in ours or theirs, an internal error).
 */
export function mergeMemoryFile(input: MergeInput): MergeOutcome | NeedsLineMerge {
  const { path, markerSize } = input;
  const strategy = STRATEGIES[pathKind(path)];
  if (!strategy) return needs('not a memory file');
  const bufs = [input.base, input.ours, input.theirs];
  if (bufs.some((b) => b.length > MAX_SEMANTIC_BYTES)) return needs('larger than 1 MiB');
  if (bufs.some(isUtf16)) return needs('UTF-16 content, not UTF-8');
  if (bufs.some(looksBinary)) return needs('binary content');
  const [base0, ours, theirs] = bufs.map(decode);
  if (base0 === null || ours === null || theirs === null) return needs('not valid UTF-8');
  // git writes markers of MARKER_SIZE (a criss-cross's virtual base too); memlint's own 7 as well.
  const marker = Math.min(7, markerSize);
  if (hasConflictMarkers(ours, marker) || hasConflictMarkers(theirs, marker)) return needs('conflict markers already inside an input');

  let base = base0;
  let conflictedInBase: Set<string> | undefined;
  if (hasConflictMarkers(base, marker)) {
    // A criss-cross merge's virtual base. What its conflict blocks hold is not common ground:
    // the base is what lies outside them, so both sides' versions of a conflicted entry meet
    // as additions (the same text once, different texts a conflict) and nothing is lost.
    const sides = splitConflictMarkers(base, marker);
    if (sides === null) return needs('conflict markers in the merge base');
    base = sides.outside;
    conflictedInBase = strategy.conflictedInBase?.(sides);
  }
  let result: MergeResult;
  try {
    const addAdd = base === '' && ours !== '' && theirs !== '';
    if (addAdd) base = syntheticBase(ours, theirs);
    result = strategy.merge(base, ours, theirs, { path, markerSize, conflictedInBase, theirsAfterOurs: input.theirsAfterOurs, topicGone: input.topicGone });
    if (addAdd && result.conflicts.length === 0 && strategy !== STRATEGIES.log) result = { ...result, text: onceEachShared(result.text, ours, theirs) };
  } catch (err) {
    if (err instanceof TooRepetitiveError) return needs(err.message);
    return needs(`internal error (${(err as Error).message.split('\n')[0]})`);
  }
  const warnings = result.notes.map((n) => `memlint: ${path}: ${n}`);
  const w = strategy.warning?.(result, path, input.format);
  if (w) warnings.push(w);
  return {
    output: Buffer.from(result.text, 'utf8'),
    conflicts: result.conflicts.map((c) => `${c.label}: ${c.reason}`),
    warnings,
    method: 'semantic',
    ...(result.deletedEdited ? { deletedEdited: result.deletedEdited } : {}),
    ...(w ? { limitWarning: w } : {}),
  };
}

// A conflict block's marker lines, as conflictBlock (text.ts) writes them, whatever the marker size.
const MARKER_LABEL_LINE = /^(?:<+ ours|>+ theirs) \(.*$/gm;

/**
 * No message and no conflict label prints a secret (docs/security.md): a link target with a password
 * names its entry's conflict. The lines between the markers are the file's own and stay as they are.
 */
export function maskOutcome(outcome: MergeOutcome): MergeOutcome {
  let output = outcome.output;
  if (output && outcome.conflicts.length > 0) {
    const text = output.toString('utf8');
    const masked = text.replace(MARKER_LABEL_LINE, (line) => maskSecrets(line));
    if (masked !== text) output = Buffer.from(masked, 'utf8');
  }
  const limit = outcome.limitWarning === undefined ? {} : { limitWarning: maskSecrets(outcome.limitWarning) };
  return { ...outcome, output, conflicts: outcome.conflicts.map((c) => maskSecrets(c)), warnings: outcome.warnings.map((w) => maskSecrets(w)), ...limit };
}

/**
 * One line naming what the agent will not see when a merged index is over Claude Code's limits, as
 * the configured version measures them (before 2.1.211 on the raw file; agent memory always raw).
 */
export function limitWarning(text: string, path: string, entries?: Array<{ text: string; target: string }>, format: ClaudeFormat = NEWEST_FORMAT): string | null {
  // Cheap necessary conditions first: most merged indexes are far from either limit.
  if (!mayReachLimits(text.length, newlinesUpTo(text, format.indexMaxLines), format)) return null;
  const loaded = loadIndex(text, { strip: format.stripIndex && !isAgentMemdir(`/${dirname(path)}`) });
  if (!loaded.truncated) return null;
  // The lines Claude Code keeps, without the carriage return of a CRLF index (entries are read without it).
  const keptLines = new Set(loaded.kept.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l)));
  const all = entries ?? sideLines([text])[0]!.flatMap((l) => (l.entry ? [{ text: l.text, target: l.entry.target }] : []));
  const unseen = all.filter((l) => !keptLines.has(l.text.trim()) && !keptLines.has(l.text)).map((l) => l.target);
  const { lines, units } = loaded.measure;
  const names = unseen.length > 5 ? `${unseen.slice(0, 5).join(', ')} and ${unseen.length - 5} more` : unseen.join(', ');
  return `memlint: ${path}: the merged index is ${lines} lines and ${units} characters (Claude Code ${format.version} loads ${format.indexMaxLines} lines, ${format.indexMaxUnits} characters): the agent will not see ${unseen.length} entr${unseen.length === 1 ? 'y' : 'ies'}${unseen.length ? `: ${names}` : ''}`;
}

const NEWEST_FORMAT = claudeFormat();

/** Newlines in a text, counted up to `max` + 1. */
function newlinesUpTo(text: string | Buffer, max: number): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0 && n <= max; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** Whether a text of this many units and newlines can be over either limit (stripping only shortens it). */
function mayReachLimits(units: number, newlines: number, format: ClaudeFormat): boolean {
  return newlines >= format.indexMaxLines || units > format.indexMaxUnits;
}

/**
 * The configured version's format, read only when a merged index could reach the limits: the
 * merge holds no more than both sides' lines and bytes (and a few marker lines). A config memlint
 * cannot read leaves the newest known: the merge itself never depends on it.
 */
function formatForWarning(input: MergeInput, cwd: string): ClaudeFormat | undefined {
  if (pathKind(input.path) !== 'index') return undefined;
  const lines = newlinesUpTo(input.ours, MAX_INDEX_LINES) + newlinesUpTo(input.theirs, MAX_INDEX_LINES) + 16;
  if (!mayReachLimits(input.ours.length + input.theirs.length + 1024, lines, NEWEST_FORMAT)) return undefined;
  const version = configuredClaudeCode(cwd);
  return version ? claudeFormat(version) : undefined;
}

export interface DriverArgs {
  base: string;
  ours: string;
  theirs: string;
  markerSize: number;
  path: string;
  /** The folder git runs the driver in (the repository's top): git's own line merge runs there. */
  cwd: string;
  /** The environment git runs the driver with: git's own line merge runs with it too. */
  env: NodeJS.ProcessEnv;
}

/** The driver as git runs it: merges into OURS (and nothing else). Returns the exit code. */
export async function runDriver(args: DriverArgs, stderr: (line: string) => void): Promise<number> {
  const read = (f: string) => readFileSync(f);
  const input: MergeInput = { base: read(args.base), ours: read(args.ours), theirs: read(args.theirs), path: args.path, markerSize: args.markerSize };
  const format = formatForWarning(input, args.cwd);
  if (format) input.format = format;
  let outcome = mergeMemoryFile(input);
  if (!('lineMerge' in outcome) && outcome.deletedEdited) {
    // An entry deleted on one side and edited on the other stays only with its topic file: git
    // is asked (rarely: loaded only here) whether this merge deletes that file.
    const topicGone = await goneTopics(args, input, outcome.deletedEdited);
    if (topicGone.size > 0) {
      const again = mergeMemoryFile({ ...input, topicGone });
      if (!('lineMerge' in again)) outcome = again;
    }
  }
  if ('lineMerge' in outcome) {
    // Loaded only here: starting git's machinery costs the common path several milliseconds.
    const { mergeFile } = await import('../git/merge-file.js');
    let r: LineMergeResult;
    try {
      r = mergeFile({ cwd: args.cwd, env: args.env }, { ours: args.ours, base: args.base, theirs: args.theirs }, { markerSize: args.markerSize });
    } catch {
      r = null;
    }
    outcome = lineMergeOutcome(r, outcome.reason, args.path);
  }
  outcome = maskOutcome(outcome);
  // OURS is git's private temporary file, read back only after the driver exits: written in
  // place (a rename costs more than the whole merge on some filesystems). The working tree,
  // where atomic writes matter, is never touched here.
  if (outcome.output && !outcome.output.equals(input.ours)) writeFileSync(args.ours, outcome.output);
  for (const w of outcome.warnings) stderr(w);
  if (outcome.conflicts.length > 0) {
    stderr(`memlint: ${args.path}: left in conflict: ${outcome.conflicts.join('; ')}`);
    return 1;
  }
  return 0;
}

/**
 * For each entry deleted on one side and edited on the other (by key): whether this merge deletes
 * its topic file, which the editing side holds and the deleting side does not (true), or not
 * (false). Entries for which git cannot name a side are left out.
 */
async function goneTopics(args: DriverArgs, input: MergeInput, entries: DeletedEdited[]): Promise<Map<string, boolean>> {
  const dir = posix.dirname(args.path.replace(/\\/g, '/'));
  const asks = entries.flatMap((e) => {
    const file = posix.normalize(dir === '.' ? e.key : `${dir}/${e.key}`);
    return file.startsWith('../') || file.startsWith('/') ? [] : [{ ...e, path: file }];
  });
  const out = new Map<string, boolean>();
  if (asks.length === 0) return out;
  try {
    const { sidesHoldFiles } = await import('../git/merge-sides.js');
    const holds = sidesHoldFiles({ cwd: args.cwd, env: args.env }, { indexPath: args.path, ours: input.ours, theirs: input.theirs }, asks.map((a) => a.path));
    for (const a of asks) {
      const deleting = holds(a.deletedIn, a.path);
      const editing = holds(a.deletedIn === 'ours' ? 'theirs' : 'ours', a.path);
      if (deleting === true || editing === false) out.set(a.key, false);
      else if (deleting === false && editing === true) out.set(a.key, true);
    }
  } catch {
    // git could not tell: the entries are kept, as the merge alone decides
  }
  return out;
}
