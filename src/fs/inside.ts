// The safe-path layer: every file memlint writes, creates, moves, removes or re-times goes through
// here (docs/security.md). A repository is untrusted input: a clone, a branch or a merged pull request
// can hold a symlink anywhere (the memdir, a parent folder, MEMORY.md, a topic, the lock, the
// archive, the snapshots folder, .gitignore, a hook file) or config naming a folder outside it.
//
// The rule: a path memlint changes lies inside the repository's working tree (its `.git` aside:
// git's own folder is git's), and no component of it below the working tree's top is a symlink,
// whether the link points inside the repository or out of it. A path that fails is reported and
// left alone: the link itself is not replaced, and nothing is read through it.
//
// For every command (other engineers' too: adopt, update-branch, hook):
//   const root = repository(cwd)?.root       // src/git/repo.ts: the working tree's top (the bound)
//   checkInsideRepo(root, p)                 // { ok: true, path } | { ok: false, reason }: decide, report
//   resolveInsideRepo(root, p)               // the same, throwing UnsafePathError (message: one line)
//   writeInsideRepo(root, p, data, opts)     // atomic write (src/fs/atomic.ts) after the check
//   mkdirInsideRepo / removeInsideRepo / moveInsideRepo / setTimesInsideRepo / removeTreeInsideRepo
//   readInsideRepo(root, p)                  // a read that refuses a path through a symlink
// Outside a repository, pass the folder the user named (the memdir, or its parent when the command
// writes beside it) as the bound. Paths missing on disk are fine: they are created as real folders.
// memlint's own short-lived files in the OS temp folder do not go through here.
import { lstatSync, lutimesSync, mkdirSync, readFileSync, renameSync, rmSync, unlinkSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { linkFileAtomic, writeFileAtomic } from './atomic.js';
import { isWithin, realOrResolved } from './paths.js';

/** A path that the safe-path layer refuses; the message is one line naming it and why. */
export class UnsafePathError extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(reason);
    this.name = 'UnsafePathError';
  }
}

export type PathCheck = { ok: true; path: string } | { ok: false; path: string; reason: string };


/**
 * Where `path` lies below the repository's top, as [top as it appears in path, relative path]; null
 * when it is not below it. The top may be spelt through a symlink above the repository
 * (/var -> /private/var): the shortest ancestor of path that is the top in reality counts.
 */
function locate(root: string, path: string): [string, string] | null {
  const realRoot = realOrResolved(root);
  for (const base of [realRoot, root]) {
    if (isWithin(path, base)) return [base, relative(base, path)];
  }
  const chain: string[] = [];
  for (let d = path; ; d = dirname(d)) {
    chain.unshift(d);
    if (dirname(d) === d) break;
  }
  for (const a of chain) {
    if (realOrResolved(a) === realRoot) return [a, relative(a, path)];
  }
  return null;
}

/**
 * Whether memlint may change `path` (absolute, or relative to the working directory): inside the
 * repository `root`, not in its .git, and no component below root a symlink (nor a non-folder
 * where a folder is needed).
 */
export function checkInsideRepo(root: string, path: string): PathCheck {
  const abs = resolve(path);
  const found = locate(resolve(root), abs);
  if (!found) return { ok: false, path: abs, reason: `${abs} is outside the repository (${root}); memlint does not write there` };
  const [base, rel] = found;
  if (rel === '') return { ok: true, path: abs };
  const parts = rel.split(sep);
  if (parts[0] === '.git') return { ok: false, path: abs, reason: `${abs} is inside .git; memlint leaves git's folder to git` };
  let cur = base;
  for (let i = 0; i < parts.length; i++) {
    cur = join(cur, parts[i]!);
    let st;
    try {
      st = lstatSync(cur);
    } catch {
      return { ok: true, path: abs }; // missing from here on: created as real folders and files
    }
    if (st.isSymbolicLink()) return { ok: false, path: abs, reason: `${cur} is a symlink; memlint does not write or read through it` };
    if (i < parts.length - 1 && !st.isDirectory()) return { ok: false, path: abs, reason: `${cur} is not a folder` };
  }
  return { ok: true, path: abs };
}

/** The absolute path when memlint may change it, else an UnsafePathError naming why. */
export function resolveInsideRepo(root: string, path: string): string {
  const c = checkInsideRepo(root, path);
  if (!c.ok) throw new UnsafePathError(c.path, c.reason);
  return c.path;
}

/** Write a file atomically (temp file in the same folder, then rename), never through a symlink. */
export function writeInsideRepo(root: string, path: string, data: string | Uint8Array, opts: { mode?: number; mkdir?: boolean } = {}): void {
  const abs = resolveInsideRepo(root, path);
  writeFileAtomic(abs, data, opts);
}

/**
 * Give a file inside the repository a second name there (linkFileAtomic): both ends are checked.
 * False when the file system makes no such link; nothing is changed then.
 */
export function linkInsideRepo(root: string, from: string, to: string, opts: { mkdir?: boolean } = {}): boolean {
  return linkFileAtomic(resolveInsideRepo(root, from), resolveInsideRepo(root, to), opts);
}

/** Create a folder (and its missing parents) inside the repository. */
export function mkdirInsideRepo(root: string, dir: string): void {
  mkdirSync(resolveInsideRepo(root, dir), { recursive: true });
}

/** Remove a file (never a symlink: the link is left alone, and reported by the caller). Missing: nothing to do. */
export function removeInsideRepo(root: string, path: string): void {
  const abs = resolveInsideRepo(root, path);
  try {
    unlinkSync(abs);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

/** Remove a folder and everything in it (symlinks inside are removed as links, never followed). */
export function removeTreeInsideRepo(root: string, dir: string): void {
  rmSync(resolveInsideRepo(root, dir), { recursive: true, force: true });
}

/** Move a file within the repository; both ends are checked, the target's folder is created. */
export function moveInsideRepo(root: string, from: string, to: string): void {
  const src = resolveInsideRepo(root, from);
  const dst = resolveInsideRepo(root, to);
  mkdirSync(dirname(dst), { recursive: true });
  renameSync(src, dst);
}

/** Set a file's times; the file itself is never a symlink here, and lutimes would not follow one. */
export function setTimesInsideRepo(root: string, path: string, atime: Date | number, mtime: Date | number): void {
  lutimesSync(resolveInsideRepo(root, path), atime, mtime);
}

/** Read a file that memlint is about to change, refusing a path through a symlink; null when missing. */
export function readInsideRepo(root: string, path: string): Buffer | null {
  const abs = resolveInsideRepo(root, path);
  try {
    return readFileSync(abs);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}
