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

/** Append a line to ARCHIVE.md (state.archive starts with its current text; created with a header on first use). */
export function addArchiveLine(state: MemState, ctx: StepContext, line: string): MemState {
  const archive = new Map(state.archive);
  let text = archive.get(ARCHIVE_INDEX) ?? archiveHeader(ctx.memdirLabel);
  // Already there (a run killed after writing ARCHIVE.md and before removing what it moved,
  // resumed the same day or a later one): once is enough. Lines are compared without their date.
  const known = readArchive(text);
  const key = undated(line);
  if (known.keys.has(key)) return state;
  // (Lines added with the text's dominant line end keep it dominant.)
  const eol = known.eol;
  if (!known.ended) text += eol;
  const next = text + line + eol;
  known.keys.add(key);
  lastArchive = { text: next, keys: known.keys, eol, ended: true };
  archive.set(ARCHIVE_INDEX, next);
  return { ...state, archive };
}

const undated = (l: string) => l.replace(/\b(on) \d{4}-\d{2}-\d{2}\b/g, '$1 …');

// The undated lines and the line end of the archive text last written: consolidation adds line
// after line, and reading the whole text again for each one made archiving many entries quadratic.
// (Nothing reads the text itself once it is known: a regular expression run on a text made by
// appending would copy it whole each time.)
interface KnownArchive {
  text: string;
  keys: Set<string>;
  eol: string;
  /** Empty, or ending in a line end. */
  ended: boolean;
}
let lastArchive: KnownArchive | null = null;

function readArchive(text: string): KnownArchive {
  if (lastArchive?.text === text) return lastArchive;
  lastArchive = { text, keys: new Set(text.split(/\r?\n|\r/).map(undated)), eol: dominantEol(text), ended: text === '' || /[\r\n]$/.test(text) };
  return lastArchive;
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

/** Move a memdir file into the archive (its text as it stands in `state`), recording the move. */
export function moveToArchive(state: MemState, ctx: StepContext, rel: string): { state: MemState; to: string } {
  const text = state.files.get(rel);
  if (text === undefined) return { state, to: rel };
  const to = archiveName(
    rel,
    (p) => p === ARCHIVE_INDEX || ctx.archivePaths.has(p) || state.archive.has(p),
    (p) => p !== ARCHIVE_INDEX && !state.archive.has(p) && ctx.archivePaths.has(p) && ctx.archiveText?.(p) === text,
  );
  const files = new Map(state.files);
  files.delete(rel);
  const archive = new Map(state.archive);
  archive.set(to, text);
  return { state: { files, archive, moves: [...state.moves, { from: rel, to }] }, to };
}

/** ARCHIVE.md's line for a file moved there (`rel`: its path in the archive). */
export function archiveEntryLine(title: string, rel: string, hook: string, note: string): string {
  const t = title.replace(/(?<!\\)([\[\]])/g, '\\$1');
  const target = linkDestination(rel);
  return hook ? `- [${t}](${target}) — ${hook} (${note})` : `- [${t}](${target}) (${note})`;
}
