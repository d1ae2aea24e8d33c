// Which memories may name a path the staged change renames or deletes, answered from the working
// tree when it can be: the pre-commit hook's common case (code moved, no memory names it) then
// starts no second git process. Loaded by the launcher (dist/cli.js) before the program.
import { closeSync, constants, lstatSync, openSync, readFileSync, type Stats } from 'node:fs';
import { indexMarkdown, unchangedSince, type MarkdownEntry } from '../git/index-file.js';
import { fileKind, INDEX_FILE } from '../memdir/kinds.js';
import { agentMemoryScope } from '../memdir/format.js';
import { ownerFolder } from './staged-paths.js';

/**
 * The memory files the staged change does not stage whose text in the index holds one of
 * `needles` (src/lint/staged-paths.ts lostPathNeedles), read from disk: git's index file says
 * where the memdirs are (the folders whose MEMORY.md it holds) and which of their files are the
 * same on disk as in the index (stat data, as git itself decides), and those are read. Daily and
 * session logs are left out: no-stale-reference does not read them. null when that is not
 * certain: a memory file edited, deleted or replaced in the working tree since it was staged, a
 * folder on its way that is a symlink, text with a NUL (a working-tree encoding such as UTF-16),
 * or an index this reader does not read (src/git/index-file.ts). The caller then asks git.
 */
export function namingOnDisk(cwd: string, env: NodeJS.ProcessEnv, needles: string[], staged: Map<string, string>): string[] | null {
  if (needles.length === 0) return [];
  const idx = indexMarkdown(cwd, env);
  if (!idx) return null;
  const { top, entries, written } = idx;
  const present = new Set(entries.filter((e) => e.path === INDEX_FILE || e.path.endsWith(`/${INDEX_FILE}`)).map((e) => e.path));
  if (present.size === 0) return [];
  const wanted = needles.map((n) => Buffer.from(n, 'utf8'));
  const folders = new Map<string, boolean>();
  const realFolder = (rel: string): boolean => {
    if (rel === '') return true;
    let ok = folders.get(rel);
    if (ok === undefined) {
      const st = lstatSync(`${top}/${rel}`, { throwIfNoEntry: false });
      const slash = rel.lastIndexOf('/');
      ok = st !== undefined && st.isDirectory() && realFolder(slash < 0 ? '' : rel.slice(0, slash));
      folders.set(rel, ok);
    }
    return ok;
  };
  const naming: string[] = [];
  for (const e of entries) {
    if (staged.has(e.path)) continue;
    const owner = ownerFolder(e.path, present);
    if (owner === null || agentMemoryScope(owner) === 'local') continue;
    if (fileKind(owner === '' ? e.path : e.path.slice(owner.length + 1)).kind === 'log') continue;
    const slash = e.path.lastIndexOf('/');
    if (!realFolder(slash < 0 ? '' : e.path.slice(0, slash))) return null;
    // Index paths are clean ('/' separators, no . or ..): joined without path.join's normalising.
    const text = unchangedText(`${top}/${e.path}`, e, written);
    if (text === null) return null;
    if (wanted.some((n) => text.includes(n))) naming.push(e.path);
  }
  return naming;
}

/**
 * The file's text when git would take it for the entry's content unchanged (unchangedSince), else
 * null: a regular file, not read through a symlink, with no NUL in it.
 */
function unchangedText(abs: string, entry: MarkdownEntry, written: Stats): Buffer | null {
  const st = lstatSync(abs, { throwIfNoEntry: false });
  if (st === undefined || !unchangedSince(entry, st, written)) return null;
  let text: Buffer;
  try {
    const fd = openSync(abs, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      text = readFileSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  }
  return text.length === st.size && !text.includes(0) ? text : null;
}
