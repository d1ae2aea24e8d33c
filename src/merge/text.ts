// Text plumbing shared by the merges: lines with their own endings, OURS's conventions for the
// output (BOM, dominant line ending, final newline), conflict blocks and marker detection.
import { bomOf, dominantEol, splitLines, withoutBom } from '../memdir/lines.js';

export interface Line {
  text: string;
  eol: string;
}

/** A line of a merge result; eol null means "ours' dominant line ending" (a line from theirs). */
export interface OutLine {
  text: string;
  eol: string | null;
}

export interface Conflict {
  /** What the conflict is about: an entry's target, a frontmatter key, or "lines N-M". */
  label: string;
  reason: string;
}

export interface MergeResult {
  text: string;
  conflicts: Conflict[];
  /** Things worth telling the person merging (never a conflict): e.g. delete-vs-edit kept. */
  notes: string[];
  /** For an index: the entry lines of the result (text and target), when the merge knows them. */
  entries?: Array<{ text: string; target: string }>;
  /** For an index: the entries deleted on one side and edited on the other. */
  deletedEdited?: DeletedEdited[];
}

/** An index entry deleted on one side and edited on the other: its topic file's key, its target, and the deleting side. */
export interface DeletedEdited {
  key: string;
  target: string;
  deletedIn: 'ours' | 'theirs';
}

export function stripBom(text: string): { bom: string; body: string } {
  return { bom: bomOf(text), body: withoutBom(text) };
}

/** Lines with their endings (memdir/lines.ts splitLines: one split for the whole project). */
export const toLines: (body: string) => readonly Line[] = splitLines;

/** OURS's conventions, which every merged text keeps. */
export interface Style {
  bom: string;
  eol: string;
  finalNewline: boolean;
}

export function styleOf(ours: string, fallback?: string): Style {
  const source = ours === '' && fallback !== undefined ? fallback : ours;
  const { bom } = stripBom(source);
  return { bom, eol: dominantEol(source), finalNewline: source === '' || /[\r\n]$/.test(source) };
}

export function render(lines: readonly OutLine[], style: Style): string {
  let out = style.bom;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    const last = i === lines.length - 1;
    const eol = last && !style.finalNewline ? '' : l.eol || style.eol;
    out += l.text + eol;
  }
  return out;
}

/** out.push(...items) without spreading: a spread passes each item as an argument, and a large array overflows the stack. */
export function pushAll<T>(out: T[], items: readonly T[]): void {
  for (const x of items) out.push(x);
}

export function fromOurs(l: Line): OutLine {
  return { text: l.text, eol: l.eol };
}

export function fromTheirs(l: Line): OutLine {
  return { text: l.text, eol: null };
}

/** A conflict block: only the lines that truly conflict, the label naming what conflicts. */
export function conflictBlock(markerSize: number, conflict: Conflict, ours: readonly OutLine[], theirs: readonly OutLine[]): OutLine[] {
  // Exactly git's %L (the conflict-marker-size attribute), as git's own merge honours it.
  const n = markerSize;
  return [
    { text: `${'<'.repeat(n)} ours (${conflict.label}: ${conflict.reason})`, eol: null },
    ...ours,
    { text: '='.repeat(n), eol: null },
    ...theirs,
    { text: `${'>'.repeat(n)} theirs (${conflict.label})`, eol: null },
  ];
}

const OPEN_RE = /^<{7,}(?: |$)/m;
const CLOSE_RE = /^>{7,}(?: |$)/m;

/** A marker line of at least minSize characters (git's default 7, or the conflict-marker-size attribute). */
const markerRe = (ch: '<' | '>', minSize: number) => (minSize === 7 ? (ch === '<' ? OPEN_RE : CLOSE_RE) : new RegExp(`^${ch}{${minSize},}(?: |$)`, 'm'));

/**
 * Every line of text that is a conflict marker line at this marker size: an opener, a closer or a
 * base marker (memlint's own size 7 too, when the size is larger), a separator of either size.
 */
export function markerLines(text: string, size: number): Array<{ line: number; text: string }> {
  const min = Math.min(7, size);
  const marker = new RegExp(`^(?:<{${min},}|>{${min},}|\\|{${min},})(?: |$)|^(?:={${size}}|={7})$`);
  const out: Array<{ line: number; text: string }> = [];
  text.split('\n').forEach((raw, i) => {
    const l = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (marker.test(l)) out.push({ line: i + 1, text: l });
  });
  return out;
}

/** Whether text holds git-style conflict markers (an opening and a closing marker line). */
export function hasConflictMarkers(text: string, minSize = 7): boolean {
  return markerRe('<', minSize).test(text) && markerRe('>', minSize).test(text);
}

export interface MarkedSides {
  ours: string;
  /** null when the markers carry no base section (git's default "merge" style). */
  base: string | null;
  theirs: string;
  /** The text outside the conflict blocks only: the base when the markers carry none. */
  outside: string;
  blocks: number;
}

/**
 * Splits a text holding conflict blocks (merge or diff3 style, any marker size) back into the
 * three sides. Text outside the blocks belongs to all three. Returns null when the markers are not
 * well formed (unclosed, or nested).
 */
export function splitConflictMarkers(text: string, minSize = 7): MarkedSides | null {
  const openRe = new RegExp(`^(<{${minSize},})(?: |$)`);
  const closeRe = new RegExp(`^>{${minSize},}(?: |$)`);
  const lines = splitLines(text);
  let ours = '';
  let base = '';
  let theirs = '';
  let outside = '';
  let sawBase = false;
  let blocks = 0;
  let state: 'out' | 'ours' | 'base' | 'theirs' = 'out';
  let size = 0;
  for (const { text: t, eol } of lines) {
    const full = t + eol;
    const open = openRe.exec(t);
    if (state === 'out') {
      if (open) {
        state = 'ours';
        size = open[1]!.length;
        blocks++;
        continue;
      }
      if (closeRe.test(t)) return null;
      ours += full;
      base += full;
      theirs += full;
      outside += full;
      continue;
    }
    const marker = (ch: string) => t.length >= size && t.slice(0, size) === ch.repeat(size) && (t.length === size || t[size] === ' ');
    if (open) return null;
    if (state === 'ours' && marker('|')) {
      state = 'base';
      sawBase = true;
    } else if ((state === 'ours' || state === 'base') && t === '='.repeat(size)) {
      state = 'theirs';
    } else if (state === 'theirs' && marker('>')) {
      state = 'out';
    } else if (state === 'ours') {
      ours += full;
    } else if (state === 'base') {
      base += full;
    } else {
      theirs += full;
    }
  }
  if (state !== 'out' || blocks === 0) return null;
  return { ours, base: sawBase ? base : null, theirs, outside, blocks };
}
