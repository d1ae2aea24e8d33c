// The archive: a folder beside the memdir (outside it, since Claude Code's recall scans every .md
// inside the memdir), indexed by ARCHIVE.md. Things leave the memdir only by moving here.
import { posix } from 'node:path';
import { dominantEol } from '../memdir/lines.js';
import { ARCHIVE_INDEX } from '../memdir/kinds.js';
import { linkDestination } from '../memdir/memory-index.js';
import type { MemState, StepContext } from './types.js';

export function archiveHeader(memdirLabel: string, eol = '\n'): string {
  return [
    '# Memory archive',
    '',
    `Memories and index entries moved out of \`${memdirLabel}\` by \`memlint consolidate\`. Claude Code does not load anything here;`,
    'to bring a memory back, move its file into the memory folder and its line into MEMORY.md.',
    '',
  ].join(eol) + eol;
}

/** Append a line to ARCHIVE.md in the draft (its archive starts with ARCHIVE.md's current text; created with a header on first use). */
export function addArchiveLine(draft: MemState, ctx: StepContext, line: string): void {
  let text = draft.archive.get(ARCHIVE_INDEX) ?? archiveHeader(ctx.memdirLabel);
  // Already there (a run killed after writing ARCHIVE.md and before removing what it moved,
  // resumed the same day or a later one): once is enough. Lines are compared without their date.
  const known = readArchive(text);
  const key = undated(line);
  if (known.keys.has(key)) return;
  // (Lines added with the text's dominant line end keep it dominant.)
  const eol = known.eol;
  if (!known.ended) text += eol;
  const next = text + line + eol;
  known.keys.add(key);
  fileByDestinations(known.byDestination, line);
  lastArchive = { ...known, text: next, ended: true };
  draft.archive.set(ARCHIVE_INDEX, next);
}

const undated = (l: string) => l.replace(/\b(on) \d{4}-\d{2}-\d{2}\b/g, '$1 …');

// The undated lines and the line end of the archive text last written: consolidation adds line
// after line, and reading the whole text again for each one made archiving many entries quadratic.
// (Nothing reads the text itself once it is known: a regular expression run on a text made by
// appending would copy it whole each time.)
interface KnownArchive {
  text: string;
  keys: Set<string>;
  /** The undated lines by each link destination written in them (the text between `](` and the next `)`). */
  byDestination: Map<string, string[]>;
  eol: string;
  /** Empty, or ending in a line end. */
  ended: boolean;
}
let lastArchive: KnownArchive | null = null;

function readArchive(text: string): KnownArchive {
  if (lastArchive?.text === text) return lastArchive;
  const lines = text.split(/\r?\n|\r/);
  const byDestination = new Map<string, string[]>();
  for (const l of lines) fileByDestinations(byDestination, l);
  lastArchive = { text, keys: new Set(lines.map(undated)), byDestination, eol: dominantEol(text), ended: text === '' || /[\r\n]$/.test(text) };
  return lastArchive;
}

/** File a line (undated) under each destination it links (as written). */
function fileByDestinations(byDestination: Map<string, string[]>, line: string): void {
  let key: string | undefined;
  for (let i = line.indexOf(']('); i >= 0; i = line.indexOf('](', i + 2)) {
    const end = line.indexOf(')', i + 2);
    if (end < 0) break;
    const destination = line.slice(i + 2, end);
    key ??= undated(line);
    const same = byDestination.get(destination);
    if (same) same.push(key);
    else byDestination.set(destination, [key]);
  }
}

/**
 * Whether ARCHIVE.md records a move to `archivedAs` with this note already: a line linking it and
 * ending with the note, dates aside (a run killed after writing ARCHIVE.md, resumed).
 */
export function moveRecorded(draft: MemState, archivedAs: string, stamp: string): boolean {
  const text = draft.archive.get(ARCHIVE_INDEX);
  if (text === undefined) return false;
  const destination = linkDestination(archivedAs);
  const ending = `(${undated(stamp)})`;
  // A destination holds no `)` unless in angle brackets: then every line is read, as before.
  const lines = destination.includes(')') ? text.split(/\r?\n|\r/).filter((l) => l.includes(`](${destination})`)).map(undated) : (readArchive(text).byDestination.get(destination) ?? []);
  return lines.some((l) => l.endsWith(ending));
}

/**
 * The archive name for a memdir file: its own path, or name-2.md, name-3.md… when taken; a name
 * that already holds exactly this text is reused (a copy an interrupted run left there).
 */
export function archiveName(rel: string, taken: (p: string) => boolean, holdsSame: (p: string) => boolean = () => false): string {
  if (!taken(rel) || holdsSame(rel)) return rel;
  const dir = posix.dirname(rel);
  const base = posix.basename(rel, '.md');
  for (let n = 2; ; n++) {
    const candidate = posix.join(dir === '.' ? '' : dir, `${base}-${n}.md`);
    if (!taken(candidate) || holdsSame(candidate)) return candidate;
  }
}

/** Move a memdir file into the archive in the draft (its text as it stands there), recording the move; where it went. */
export function moveToArchive(draft: MemState, ctx: StepContext, rel: string): string {
  const text = draft.files.get(rel);
  if (text === undefined) return rel;
  const to = archiveName(
    rel,
    (p) => p === ARCHIVE_INDEX || ctx.archivePaths.has(p) || draft.archive.has(p),
    (p) => p !== ARCHIVE_INDEX && !draft.archive.has(p) && ctx.archivePaths.has(p) && ctx.archiveText?.(p) === text,
  );
  draft.files.delete(rel);
  draft.archive.set(to, text);
  draft.moves.push({ from: rel, to });
  return to;
}

/** ARCHIVE.md's line for a file moved there (`rel`: its path in the archive). */
export function archiveEntryLine(title: string, rel: string, hook: string, note: string): string {
  const t = title.replace(/(?<!\\)([\[\]])/g, '\\$1');
  const target = linkDestination(rel);
  return hook ? `- [${t}](${target}) — ${hook} (${note})` : `- [${t}](${target}) (${note})`;
}
